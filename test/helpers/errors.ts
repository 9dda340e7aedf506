/** Test helper: the errors the service's answers become, as the tests of the error words need them. */
import { ApiError } from '../../src/core/service'

/** The service at https://s.example refused `request` with the HTTP `status`. */
export function refusedBy(status: number, request = 'GET /x'): ApiError {
  return new ApiError({ kind: 'http', status, request, origin: 'https://s.example' })
}
