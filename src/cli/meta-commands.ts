/** `help` and `completion`: commands about the other commands, made from their definitions. */
import type { Command } from './command'
import { SHELLS, completionScript, type Shell } from './completion'
import { UsageError } from './errors'
import { commandHelp, generalHelp } from './help'
import { closestWords, didYouMean } from './suggest'

const HELP_HINT = 'Run `skill-runner --help` for the commands and their options.'
/** The options every command takes, for suggesting against a mistyped one. */
export const GLOBAL_FLAGS = ['--json', '--help', '--version', '--base-url', '--env'] as const

/** The command named by the longest run of leading words, and the words after it. */
export function findCommand(
  commands: readonly Command[],
  words: string[],
): { command: Command; args: string[] } | undefined {
  let best: { command: Command; args: string[] } | undefined
  for (const command of commands) {
    const names = command.name.split(' ')
    if (names.every((w, i) => words[i] === w)) {
      if (!best || names.length > best.command.name.split(' ').length) {
        best = { command, args: words.slice(names.length) }
      }
    }
  }
  return best
}

/**
 * What the user typed as a command that is none: the first word, or the first two when the first
 * names a group ("runs frobnicate"), never the arguments after it; and the nearest real commands.
 */
function mistypedCommand(
  commands: readonly Command[],
  words: string[],
): { typed: string; suggestions: string[] } {
  const [first = '', second] = words
  const names = commands.map((c) => c.name.split(' '))
  const inGroup = (group: string) => names.filter((n) => n.length > 1 && n[0] === group)
  const isGroup = inGroup(first).length > 0
  if (isGroup && second !== undefined && !second.startsWith('-')) {
    const subcommands = inGroup(first).map((n) => n[1]!)
    const suggestions = closestWords(second, subcommands).map((w) => `${first} ${w}`)
    return { typed: `${first} ${second}`, suggestions }
  }
  const suggestions = closestWords(
    first,
    names.map((n) => n[0]!),
  ).map((word) =>
    second && inGroup(word).some((n) => n[1] === second) ? `${word} ${second}` : word,
  )
  return { typed: first, suggestions }
}

/** The usage error for words that name no command (or, first, an option that is none). */
export function unknownCommandError(commands: readonly Command[], words: string[]): UsageError {
  const first = words[0] ?? ''
  if (first.startsWith('-')) {
    const hint = didYouMean(closestWords(first.split('=')[0]!, GLOBAL_FLAGS), false)
    return new UsageError(`unknown option “${first}”.`, joinLines(hint, HELP_HINT))
  }
  const { typed, suggestions } = mistypedCommand(commands, words)
  const hint = didYouMean(suggestions.map((s) => `skill-runner ${s}`))
  return new UsageError(`unknown command “${typed}”.`, joinLines(hint, HELP_HINT))
}

function joinLines(...lines: string[]): string {
  return lines.filter(Boolean).join('\n')
}

export function metaCommands(all: () => readonly Command[]): Command[] {
  const help: Command = {
    name: 'help',
    summary: 'Show the commands, or one command with every option described.',
    usage: 'help [COMMAND]',
    positionals: { min: 0, max: 3, names: 'a COMMAND (one or two words, e.g. "runs list")' },
    async run(ctx, args) {
      if (args.positionals.length === 0) {
        ctx.out.announce(generalHelp(all()))
        return
      }
      const found = findCommand(all(), args.positionals)
      if (!found || found.args.length > 0) {
        const { suggestions } = mistypedCommand(all(), args.positionals)
        throw new UsageError(
          `there is no command “${args.positionals.join(' ')}”.`,
          joinLines(
            didYouMean(suggestions.map((s) => `skill-runner ${s}`)),
            'Run `skill-runner help` for the list.',
          ),
        )
      }
      ctx.out.announce(commandHelp(found.command))
    },
  }
  const completion: Command = {
    name: 'completion',
    summary: 'Print a shell completion script for bash, zsh or fish.',
    usage: 'completion bash|zsh|fish',
    positionals: { min: 1, max: 1, names: 'a SHELL: bash, zsh or fish' },
    details: `Load it in the current shell, or install it for good:
  bash  source <(skill-runner completion bash)
        skill-runner completion bash > ~/.local/share/bash-completion/completions/skill-runner
  zsh   skill-runner completion zsh > "\${fpath[1]}/_skill-runner"   (then restart zsh)
  fish  skill-runner completion fish > ~/.config/fish/completions/skill-runner.fish`,
    async run(ctx, args) {
      const shell = args.positionals[0]!
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new UsageError(
          `no completion for “${shell}”: choose bash, zsh or fish.`,
          'Usage: skill-runner completion bash|zsh|fish',
        )
      }
      ctx.out.announce(completionScript(shell as Shell, all()).trimEnd())
    },
  }
  return [help, completion]
}
