/** Browser mode: hands bytes the engine made (a workbook) to the browser as a download. */
import type { SavedFileView } from '../../shared/bridge'
import { base64ToBytes } from '../bridge/files'

export function downloadBytes(doc: Document, file: Extract<SavedFileView, { kind: 'bytes' }>) {
  const url = URL.createObjectURL(new Blob([base64ToBytes(file.base64)], { type: file.mimeType }))
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
