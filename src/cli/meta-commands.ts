/** `help` and `completion`: commands about the other commands, made from their definitions. */
import type { Command } from './command'
import { SHELLS, completionScript, type Shell } from './completion'
import { UsageError } from './errors'
import { commandHelp, generalHelp } from './help'

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
        throw new UsageError(
          `there is no command “${args.positionals.join(' ')}”.`,
          'Run `skill-runner help` for the list.',
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
