/**
 * Help text of `skill-runner`, made from the command definitions: each command's name, summary,
 * usage and options (src/cli/commands), plus one sentence per option kept here, in one place.
 * A test checks that every option of every command has its sentence.
 */
import type { Command } from './command'

export const GLOBAL_OPTIONS: [string, string][] = [
  ['--base-url URL', 'talk to the service at URL'],
  [
    '--env NAME',
    'use a saved environment (default: the default environment, the built-in Sandbox unless you chose another)',
  ],
  ['--json', 'print one JSON document on stdout; messages go to stderr'],
  ['-h, --help', 'show help (for a command: `skill-runner COMMAND --help`)'],
  ['--version', 'print the version of skill-runner'],
]

const GLOBAL_NOTES = `Token: SKILL_RUNNER_TOKEN when set, otherwise the system keychain entry of the environment.
Data folder: SKILL_RUNNER_HOME when set, otherwise the platform's app-data folder.
Colour only on a terminal; never when NO_COLOR is set. Times are shown in your time zone.
Exit codes: 0 success, 1 the answer is "no" (invalid workbook, failed run, refused cost),
2 bad usage, 3 service unreachable or token refused, 4 other errors.`

/** What an option means wherever it appears. */
const COMMON: Record<string, string> = {
  output: 'where to write (created or replaced; never left half-written)',
  template: 'the official template to check against or run, by its id (see `templates schema`)',
  listing: 'the marketplace listing, by its id (see `listings`)',
  version: 'the listing version (listingVersionId) to use; it must be the published one',
  yes: 'confirm spending without being asked (otherwise: a question at a terminal, a refusal elsewhere)',
  'max-cost':
    'refuse (exit 1) when the estimated cost is higher than N, in the environment’s unit (e.g. credits)',
  again:
    'send it even though an identical submission was already accepted (without it you get the earlier run)',
  watch: 'follow the run until it ends, with a progress bar on stderr; then print the final run',
  limit: 'show at most N items',
  rows: 'send only these rows, as spreadsheet row numbers: N-M, or N',
  'rest-of':
    'send the rows of this pilot run’s workbook that the pilot did not send, to the same target, as one batch with it',
  sheet:
    'the workbook’s sheet to read, by its name (without it: the sheet that fits; when two fit equally, the message names them)',
  map: 'which of your columns feeds which field: "Your column=fieldKey,..." (an empty key: not used); remembered for these headers',
  'map-file':
    'the same as --map, from a JSON file of { "Your column": "fieldKey" } (null: not used)',
  'skip-invalid':
    'send only the valid rows; the others go to a workbook to fix, with a Problem column',
  'set-aside':
    'where to write the rows set aside (default: beside the input, "NAME (set aside).xlsx")',
  search: 'only items whose text contains Q (case-insensitive)',
  host: 'the address to listen on (default 127.0.0.1: this computer only)',
  port: 'the port to listen on (default 0: a free port the system picks, printed once ready)',
}

/** What an option means in one command, where that differs or is its own. */
const BY_COMMAND: Record<string, Record<string, string>> = {
  'env add': {
    'token-stdin':
      'read the token from stdin (e.g. `pbpaste |` or a secrets manager) into the keychain',
    'unit-label': 'the name of the service’s money unit, shown next to amounts (default "credits")',
  },
  'templates schema': {
    offline: 'use the copy kept on this computer only; never ask the service',
  },
  'templates workbook': {
    output: 'the workbook to write (FILE.xlsx)',
    listing: 'a workbook for this marketplace listing instead of an official template',
    version: 'the listing version to write it for (default: the published one)',
  },
  validate: {
    annotate: 'also write a copy of the workbook with the bad cells marked and explained',
    template: 'check offline against this official template’s schema',
    listing: 'check on the service against this marketplace listing (with --version)',
    version: 'the listing version to check against (with --listing)',
  },
  run: {
    'callback-url': 'the service calls this URL when the run ends',
  },
  execute: {
    pilot: 'send only the first N rows, to try the listing before paying for all of them',
  },
  'runs list': {
    status: 'only runs with this status: queued, running, succeeded, failed or cancelled',
    limit: 'show at most N runs (default 50), following page tokens as needed',
  },
  'runs download': { output: 'the folder to download into; files go to DIR/RUN/row-NNN/' },
  'runs results': {
    output: 'the results workbook to write (FILE.xlsx); outputs are downloaded next to it',
  },
  'runs retry-failed': {
    from: 'the workbook the run was sent from, its failed rows corrected there: those rows are sent with its cells',
  },
  'runs redo': {
    rows: 'the rows to send again, by their spreadsheet row numbers (or submitted positions): 3,7,12 or 3-5',
    from: 'a results workbook of the run with its Redo? column filled in: the rows marked there',
  },
  'runs keep': {
    row: 'the row, by its spreadsheet row number (or submitted position)',
    version:
      'keep this version of the row: 1 is the row as the run first sent it, 2 the first time it was sent again...',
  },
  'batch show': {
    template: 'with a FILE: the batch of that workbook sent to this template',
    listing: 'with a FILE: the batch of that workbook sent to this listing',
  },
  'runs compare': { output: 'also write the comparison as a workbook (FILE.xlsx)' },
  history: { limit: 'show at most N submissions (default 200)' },
  usage: {
    months: 'the last N months, this one included (default 12)',
    days: 'the last N days, today included, instead of months',
    by: 'day (default): one line per day or month; template: one line per template or listing in each',
    csv: 'also write the lines as a CSV file',
  },
  listings: { limit: 'show at most N listings' },
  sandbox: {
    token:
      'accept T as the token of a user of its own (repeat for more users); default: a demo user',
    db: 'keep the sandbox’s state in this SQLite file across restarts (default: in memory)',
    seed: 'start with the users, templates and listings of this JSON seed file',
    'task-ms': 'how long each task takes, in milliseconds (default 300)',
    'latency-ms':
      'wait this many milliseconds before answering each request, like a distant service (default 0)',
    'url-ttl-ms':
      'artifact addresses stop working this many milliseconds after the run detail gave them (default: never)',
    'max-rows': 'the most rows one request may carry (default 10,000); more is refused naming the limit',
  },
  completion: {},
}

/** The sentence for one option of a command, or undefined when none is written. */
export function optionDescription(command: Command, option: string): string | undefined {
  return BY_COMMAND[command.name]?.[option] ?? COMMON[option]
}

/** The placeholder an option's value goes by in the command's usage ("--limit N" -> "N"). */
function valueName(command: Command, option: string): string {
  const short = command.options?.[option]?.short
  const names = short ? `(?:--${option}|-${short})` : `--${option}`
  const match = new RegExp(`${names}[ =]([^\\s\\]|)]+)`).exec(command.usage)
  if (match) return match[1]!
  if (option === 'output') return /\.xlsx/.test(command.usage) ? 'FILE.xlsx' : 'PATH'
  return 'VALUE'
}

function columns(rows: [string, string][], indent = '  '): string {
  const width = Math.min(28, Math.max(...rows.map(([left]) => left.length)))
  return rows
    .map(([left, right]) =>
      left.length > width
        ? `${indent}${left}\n${indent}${' '.repeat(width + 2)}${right}`
        : `${indent}${left.padEnd(width)}  ${right}`,
    )
    .join('\n')
}

/** The rows of a command's own options: ["-o, --output FILE.xlsx", "the workbook to write"]. */
export function optionRows(command: Command): [string, string][] {
  return Object.entries(command.options ?? {}).map(([name, config]) => {
    const flag = `${config.short ? `-${config.short}, ` : ''}--${name}`
    const left = config.type === 'string' ? `${flag} ${valueName(command, name)}` : flag
    const repeat = config.multiple ? ' (repeatable)' : ''
    return [left, `${optionDescription(command, name) ?? ''}${repeat}`]
  })
}

export function commandHelp(command: Command): string {
  const parts = [`Usage: skill-runner ${command.usage}`, '', command.summary]
  if (command.positionals && command.positionals.max > 0) {
    parts.push('', `Arguments: ${command.positionals.names}.`)
  }
  const rows = optionRows(command)
  if (rows.length > 0) parts.push('', 'Options:', columns(rows))
  if (command.details) parts.push('', command.details)
  parts.push('', 'Global options (before or after the command):', columns(GLOBAL_OPTIONS))
  return parts.join('\n')
}

export function generalHelp(commands: readonly Command[]): string {
  const rows = commands.map((c): [string, string] => [c.name, c.summary])
  const width = Math.max(...commands.map((c) => c.name.length))
  return `skill-runner: prepare, validate, run and collect AI work on a Skill Execution Service.

Usage: skill-runner <command> [options]

Commands:
${rows.map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`).join('\n')}

Global options (before or after the command):
${columns(GLOBAL_OPTIONS)}

${GLOBAL_NOTES}

Run \`skill-runner <command> --help\` for a command's options.`
}
