/** Asks the user a yes/no question on the terminal (stderr), reading the answer from stdin. */
import { createInterface } from 'node:readline/promises'
import type { CommandContext } from './command'

/** True only for an explicit "yes" (or "y"); false when stdin is not a terminal. */
export async function askYes(ctx: CommandContext, question: string): Promise<boolean> {
  if (!ctx.stdin.isTTY) return false
  const rl = createInterface({ input: ctx.stdin, output: process.stderr })
  try {
    const answer = await rl.question(`${question} `, { signal: ctx.signal })
    return /^(y|yes)$/i.test(answer.trim())
  } catch {
    return false
  } finally {
    rl.close()
  }
}
