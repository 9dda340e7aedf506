/**
 * An answer read as it arrives (a run's detail): its body handed piece by piece to a reader made
 * for this attempt, each piece moving the attempt's deadline on, and the reader's faults turned
 * into the ApiErrors the whole reading gives (answers.ts): not JSON, a field at fault, a part
 * past its bound. A network failure midway is passed on as it is, for the attempt loop to judge.
 */
import { ContractError, type EndpointName } from '../../shared/contract'
import { contractFault, NOT_JSON, schemaFault, type Asked } from './answers'
import { ApiError } from './errors'
import { eachChunk, streamFaultOf, type Deadline } from './limits'
import type { HttpAnswer } from './node-http'

/**
 * A reader of an answer as it arrives, made afresh for every attempt: it is given the body's
 * bytes piece by piece, then asked for what it made. Its errors stop the reading: a ContractError
 * or a stream fault (limits.ts: not JSON, a part past its bound) is the service's answer at
 * fault; anything else is passed on as it is.
 */
export interface AnswerStream<T> {
  write(bytes: Uint8Array): void
  end(): T
}

/** One call of an endpoint whose answer is read as a stream (a run's detail). */
export interface StreamCall<T> {
  name: EndpointName
  path: string
  open: () => AnswerStream<T>
}

/** Reads one attempt's 2xx answer through `reader`; see the header. */
export async function readStreamed<T>(
  response: HttpAnswer,
  asked: Asked,
  signal: AbortSignal,
  deadline: Deadline,
  reader: AnswerStream<T>,
): Promise<T> {
  try {
    await eachChunk(response.body, signal, (chunk) => {
      deadline.moved()
      reader.write(chunk)
      return true
    })
    return reader.end()
  } catch (error) {
    if (error instanceof ContractError) throw await schemaFault(asked, response.status, error)
    const fault = streamFaultOf(error)
    if (fault?.kind === 'not-json') throw await contractFault(asked, response.status, NOT_JSON)
    if (fault?.kind === 'too-large') {
      throw new ApiError({
        kind: 'too-large',
        request: asked.label,
        origin: asked.origin,
        status: response.status,
        detail: fault.part,
        limitBytes: fault.limitBytes,
      })
    }
    throw error
  }
}
