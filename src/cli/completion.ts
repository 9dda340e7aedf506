/**
 * Shell completion for bash, zsh and fish, generated from the command definitions: command
 * words, then each command's options (and the global ones). Files complete where a command takes
 * a FILE or writes one.
 */
import type { Command } from './command'
import { optionDescription } from './help'

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

const GLOBAL_FLAGS = ['--base-url', '--env', '--json', '--help']

interface Tree {
  /** Words that can follow the given words (top level: ''). */
  next: Map<string, string[]>
  /** Options of a full command name. */
  options: Map<string, string[]>
}

function tree(commands: readonly Command[]): Tree {
  const next = new Map<string, string[]>()
  const options = new Map<string, string[]>()
  for (const command of commands) {
    const words = command.name.split(' ')
    for (let i = 0; i < words.length; i += 1) {
      const prefix = words.slice(0, i).join(' ')
      const list = next.get(prefix) ?? []
      if (!list.includes(words[i]!)) list.push(words[i]!)
      next.set(prefix, list)
    }
    const flags = Object.entries(command.options ?? {}).flatMap(([name, o]) =>
      o.short ? [`--${name}`, `-${o.short}`] : [`--${name}`],
    )
    options.set(command.name, [...flags, ...GLOBAL_FLAGS])
  }
  return { next, options }
}

function bash(t: Tree): string {
  const cases = [...t.next.entries()]
    .map(([prefix, words]) => `    "${prefix}") words="${words.join(' ')}" ;;`)
    .join('\n')
  const optionCases = [...t.options.entries()]
    .map(([name, flags]) => `    "${name}") opts="${flags.join(' ')}" ;;`)
    .join('\n')
  return `# bash completion for skill-runner
# Load it now:        source <(skill-runner completion bash)
# Load it for good:   skill-runner completion bash > ~/.local/share/bash-completion/completions/skill-runner
_skill_runner() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" w i words="" opts=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -*) continue ;; esac
    local candidate="\${cmdpath:+$cmdpath }$w"
    case "$candidate" in
${[...t.next.keys(), ...t.options.keys()]
  .filter((k, i, all) => k !== '' && all.indexOf(k) === i)
  .map((k) => `      "${k}") cmdpath="$candidate" ;;`)
  .join('\n')}
    esac
  done
  case "$cmdpath" in
${cases}
  esac
  case "$cmdpath" in
${optionCases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${opts:-${GLOBAL_FLAGS.join(' ')}}" -- "$cur"))
  elif [[ -n "$words" ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _skill_runner skill-runner
`
}

function zsh(t: Tree, commands: readonly Command[]): string {
  const summaries = new Map(commands.map((c) => [c.name, c.summary]))
  const esc = (s: string) => s.replace(/'/g, "'\\''").replace(/:/g, '\\:')
  const groups = [...t.next.entries()]
    .map(([prefix, words]) => {
      const items = words
        .map((w) => {
          const full = prefix ? `${prefix} ${w}` : w
          return `'${esc(w)}:${esc(summaries.get(full) ?? `${full} commands`)}'`
        })
        .join(' ')
      return `    "${prefix}") items=(${items}) ;;`
    })
    .join('\n')
  const optionCases = [...t.options.entries()]
    .map(([name, flags]) => `    "${name}") opts=(${flags.join(' ')}) ;;`)
    .join('\n')
  return `#compdef skill-runner
# zsh completion for skill-runner
# Load it for good: skill-runner completion zsh > "\${fpath[1]}/_skill-runner" (then restart zsh)
# or now: source <(skill-runner completion zsh)
_skill_runner() {
  local cmdpath="" w candidate
  local -a items opts
  for w in \${words[2,CURRENT-1]}; do
    [[ "$w" == -* ]] && continue
    candidate="\${cmdpath:+$cmdpath }$w"
    case "$candidate" in
${[...new Set([...t.next.keys(), ...t.options.keys()])]
  .filter((k) => k !== '')
  .map((k) => `      "${k}") cmdpath="$candidate" ;;`)
  .join('\n')}
    esac
  done
  case "$cmdpath" in
${groups}
  esac
  case "$cmdpath" in
${optionCases}
  esac
  if [[ "$PREFIX" == -* ]]; then
    (( \${#opts} )) || opts=(${GLOBAL_FLAGS.join(' ')})
    compadd -- $opts
  elif (( \${#items} )); then
    _describe 'command' items
  else
    _files
  fi
}
compdef _skill_runner skill-runner
`
}

function fish(t: Tree, commands: readonly Command[]): string {
  const summaries = new Map(commands.map((c) => [c.name, c.summary]))
  const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  const lines = [
    '# fish completion for skill-runner',
    '# Load it for good: skill-runner completion fish > ~/.config/fish/completions/skill-runner.fish',
    'complete -c skill-runner -f',
    "complete -c skill-runner -l base-url -r -d 'talk to the service at URL'",
    "complete -c skill-runner -l env -r -d 'use a saved environment'",
    "complete -c skill-runner -l json -d 'print one JSON document on stdout'",
    "complete -c skill-runner -s h -l help -d 'show help'",
  ]
  for (const [prefix, words] of t.next) {
    const condition = prefix
      ? `__fish_seen_subcommand_from ${prefix.split(' ').at(-1)}; and not __fish_seen_subcommand_from ${words.join(' ')}`
      : `not __fish_seen_subcommand_from ${[...new Set(commands.map((c) => c.name.split(' ')[0]!))].join(' ')}`
    for (const w of words) {
      const full = prefix ? `${prefix} ${w}` : w
      lines.push(
        `complete -c skill-runner -n ${q(condition)} -a ${w} -d ${q(summaries.get(full) ?? `${full} commands`)}`,
      )
    }
  }
  for (const command of commands) {
    const seen = q(
      command.name
        .split(' ')
        .map((w) => `__fish_seen_subcommand_from ${w}`)
        .join('; and '),
    )
    for (const [name, o] of Object.entries(command.options ?? {})) {
      const parts = [`complete -c skill-runner -n ${seen}`]
      parts.push(`-l ${name}`)
      if (o.short) parts.push(`-s ${o.short}`)
      if (o.type === 'string')
        parts.push(
          name === 'output' || name === 'annotate' || name === 'db' || name === 'seed'
            ? '-r -F'
            : '-r',
        )
      const description = optionDescription(command, name)
      if (description) parts.push(`-d ${q(description)}`)
      lines.push(parts.join(' '))
    }
    if (command.positionals?.names.includes('FILE')) {
      lines.push(`complete -c skill-runner -n ${seen} -F`)
    }
  }
  return `${lines.join('\n')}\n`
}

export function completionScript(shell: Shell, commands: readonly Command[]): string {
  const t = tree(commands)
  if (shell === 'bash') return bash(t)
  if (shell === 'zsh') return zsh(t, commands)
  return fish(t, commands)
}
