/**
 * Turns a dropped or picked File into what the engine accepts: its path on disk in the desktop
 * app (nothing is copied through the window), its content in a browser.
 */
import type { FileRef } from '../../shared/bridge'
import type { UiBridge } from './index'

export async function toFileRef(bridge: UiBridge, file: File): Promise<FileRef> {
  const path = bridge.pathForFile(file)
  if (path) return { kind: 'path', path, name: file.name }
  return {
    kind: 'bytes',
    name: file.name,
    base64: bytesToBase64(new Uint8Array(await file.arrayBuffer())),
  }
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  }
  return btoa(binary)
}

/** The bytes of base64 text the engine sent (a workbook to save, a draft's kept copy). */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i)
  return bytes
}
