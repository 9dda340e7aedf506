/**
 * Asks the user a yes/no question on the terminal (stderr), reading the answer from stdin. The
 * question names the answers it takes, and only those count: anything else is asked again, a few
 * times, then taken as no, and the user is told so. Where stdin is not a terminal nothing is
 * asked and the answer is no (the command then says how to confirm without a prompt).
 */
import { createInterface } from 'node:readline/promises'
import type { CommandContext } from './command'

const ANSWERS = '(y or yes / n or no)'
const TRIES = 3

/** y/yes → true, n/no → false (any letter case); anything else → undefined. */
function readAnswer(text: string): boolean | undefined {
  const answer = text.trim().toLowerCase()
  if (answer === 'y' || answer === 'yes') return true
  if (answer === 'n' || answer === 'no') return false
  return undefined
}

/** True only for an explicit y or yes; false for n or no, when stdin is not a terminal, or on Ctrl-C. */
export async function askYes(
  ctx: Pick<CommandContext, 'stdin' | 'signal'>,
  question: string,
  terminal: NodeJS.WritableStream = process.stderr,
): Promise<boolean> {
  if (!ctx.stdin.isTTY) return false
  const rl = createInterface({ input: ctx.stdin, output: terminal })
  try {
    for (let attempt = 1; attempt <= TRIES; attempt += 1) {
      const answer = readAnswer(
        await rl.question(`${question} ${ANSWERS} `, { signal: ctx.signal }),
      )
      if (answer !== undefined) return answer
      terminal.write(attempt < TRIES ? 'Please answer y or yes, or n or no.\n' : 'Taken as no.\n')
    }
    return false
  } catch {
    return false
  } finally {
    rl.close()
  }
}
