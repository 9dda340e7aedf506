import { UserFacingError } from '../errors'
import type * as z from 'zod'

/** Thrown when a server answer does not have the shape the contract requires. */
export class ContractError extends UserFacingError {
  readonly category = 'unavailable' as const
  constructor(
    readonly what: string,
    readonly issues: string[],
  ) {
    super(
      `The service sent ${what} that this app cannot read: ${issues.join('; ')}.`,
      'Update Skill Runner, or report it to the service’s operator.',
    )
    this.name = 'ContractError'
  }
}

/** Turns zod issues into readable lines that name the field, e.g. "run.runId is missing". */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length ? issue.path.map(String).join('.') : 'the answer'
    if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      return `${path} is missing`
    }
    return `${path}: ${issue.message}`
  })
}

/** Parses `value` with `schema`, throwing a ContractError that names the fields at fault. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
): z.infer<T> {
  const result = schema.safeParse(value)
  if (!result.success) throw new ContractError(what, describeIssues(result.error))
  return result.data
}
