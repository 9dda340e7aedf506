/**
 * The one place where a Bridge call is checked and run, whatever the transport: the verb must be
 * in the contract and its arguments must parse with the contract's schema before any handler
 * sees them. Electron's IPC wrapper and the browser-mode server both call `dispatch`.
 */
import type * as z from 'zod'
import {
  bridgeRequests,
  isRequestName,
  type RequestArgs,
  type RequestName,
  type RequestResult,
} from './contract'
import { BridgeError, type BridgeErrorInfo, type BridgeResult } from './errors'

/** Who is calling: handlers refuse things a transport cannot do safely (e.g. paths over HTTP). */
export interface CallContext {
  transport: 'ipc' | 'http'
}

export type BridgeHandlers = {
  [K in RequestName]: (args: RequestArgs<K>, context: CallContext) => Promise<RequestResult<K>>
}

export type Dispatch = (
  verb: string,
  args: unknown,
  context: CallContext,
) => Promise<BridgeResult<unknown>>

export interface DispatchOptions {
  /** Called with errors that are not BridgeErrors (bugs); the caller gets a generic message. */
  onUnexpectedError?: (verb: string, error: unknown) => void
}

/** Turns zod issues into form-field messages: { name: "Give the environment a name." }. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_'
    if (!(key in fields)) {
      fields[key] =
        issue.code === 'unrecognized_keys'
          ? `Unexpected field: ${issue.keys.join(', ')}.`
          : issue.message
    }
  }
  return fields
}

export function invalidArguments(fields: Record<string, string>): BridgeErrorInfo {
  const first = Object.values(fields)[0] ?? 'Something in the form is not right.'
  return {
    code: 'invalid-arguments',
    message: first,
    nextStep: 'Correct the highlighted field and try again.',
    fields,
  }
}

export function createDispatch(handlers: BridgeHandlers, options: DispatchOptions = {}): Dispatch {
  return async (verb, rawArgs, context) => {
    if (!isRequestName(verb)) {
      return {
        ok: false,
        error: {
          code: 'not-found',
          message: `The window asked for “${verb.slice(0, 64)}”, which this version of the app does not offer.`,
          nextStep: 'Restart Skill Runner so the window and the engine are the same version.',
        },
      }
    }
    const parsed = bridgeRequests[verb].args.safeParse(rawArgs ?? {})
    if (!parsed.success) return { ok: false, error: invalidArguments(fieldErrors(parsed.error)) }
    try {
      const handler = handlers[verb] as (args: unknown, context: CallContext) => Promise<unknown>
      const value = await handler(parsed.data, context)
      return { ok: true, value: value === undefined ? null : value }
    } catch (error) {
      if (error instanceof BridgeError) return { ok: false, error: error.toInfo() }
      options.onUnexpectedError?.(verb, error)
      return {
        ok: false,
        error: {
          code: 'internal',
          message: 'Something went wrong inside Skill Runner and the action did not finish.',
          nextStep:
            'Try again. If it keeps happening, restart the app and report what you were doing.',
        },
      }
    }
  }
}
