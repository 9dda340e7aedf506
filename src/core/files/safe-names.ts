/**
 * File and folder names made from text the app does not control (artifact port names, server
 * suggested names, run ids), safe to create on Windows, macOS and Linux.
 */

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i
const MAX_NAME_BYTES = 150

/** A file or folder name that is safe to create on Windows, macOS and Linux. */
export function safeFileName(name: string, fallback = 'file'): string {
  let out = name
    .normalize('NFC')
    // Path separators and characters Windows forbids.
    .replace(/[/\\:*?"<>|]/g, '_')
    // Control characters (C0, DEL, C1) and bidi overrides that disguise extensions.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    // Windows drops trailing dots and spaces; a leading dot hides the file (and `..` climbs).
    .replace(/[. ]+$/, '')
    .replace(/^\.+/, '')
  if (!out) out = fallback
  if (RESERVED.test(out)) out = `_${out}`
  if (Buffer.byteLength(out) > MAX_NAME_BYTES) {
    const dot = out.lastIndexOf('.')
    const ext = dot > 0 && out.length - dot <= 12 ? out.slice(dot) : ''
    let stem = out.slice(0, out.length - ext.length)
    while (Buffer.byteLength(stem + ext) > MAX_NAME_BYTES) stem = [...stem].slice(0, -1).join('')
    out = stem + ext
  }
  return out
}
