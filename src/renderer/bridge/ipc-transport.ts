/** The desktop app's Bridge transport: the preload's named functions (window.skillRunner). */
import {
  eventSubscriberName,
  type BridgeEventName,
  type BridgeTransport,
  type PreloadApi,
} from '../../shared/bridge'

export function createIpcTransport(preload: PreloadApi): BridgeTransport {
  return {
    invoke(verb, args) {
      return preload[verb](args)
    },
    subscribe(event: BridgeEventName, listener) {
      const subscribe = preload[eventSubscriberName(event)] as (
        l: (payload: unknown) => void,
      ) => () => void
      return subscribe(listener)
    },
  }
}
