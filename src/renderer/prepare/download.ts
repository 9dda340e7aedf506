/** Browser mode: hands bytes the engine made (a workbook) to the browser as a download. */
import type { SavedFileView } from '../../shared/bridge'

export function downloadBytes(doc: Document, file: Extract<SavedFileView, { kind: 'bytes' }>) {
  const binary = atob(file.base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i)
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mimeType }))
  const link = doc.createElement('a')
  link.href = url
  link.download = file.fileName
  link.style.display = 'none'
  doc.body.appendChild(link)
  link.click()
  link.remove()
  // Give the browser time to start the download before the address is released.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
