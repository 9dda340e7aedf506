/** The deterministic skills the sandbox can run (INTERFACES.md, "The sandbox service"). */
export const SKILL_NAMES = ['echo', 'summarize', 'keywords', 'file-digest'] as const
export type SkillName = (typeof SKILL_NAMES)[number]

/**
 * How a template's text outputs are delivered: `inline` puts small outputs in `inlineText`
 * (large ones still go behind `accessUrl`); `file` always serves them at `accessUrl` only, so
 * clients exercise downloads.
 */
export const ARTIFACT_MODES = ['inline', 'file'] as const
