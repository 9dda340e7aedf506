/** The desktop app's Bridge transport: the preload's named functions (window.skillRunner). */
import type { BridgeEventName, BridgeTransport, PreloadApi } from '../../shared/bridge'
import { eventSubscriberName } from '../../shared/bridge/preload-api'

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
