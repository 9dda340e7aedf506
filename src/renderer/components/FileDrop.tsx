import { useRef, useState, type DragEvent, type ReactNode } from 'react'
import { useFocusAfterBusy } from './focus'

/**
 * A place to drop a file (or a folder), with a button that opens the file chooser for those who
 * do not drag. It only hands the files over; what they are for is the caller's business.
 */
export function FileDrop(props: {
  /** What the zone says, e.g. "Drop a filled workbook here". */
  prompt: string
  /** The chooser button's words. */
  chooseLabel: string
  /** The accessible name of the hidden file input (tests and screen readers find it by this). */
  inputLabel: string
  accept?: string
  /** Pick a folder instead of files (browser mode: the files that cells name). */
  folder?: boolean
  busy?: boolean
  /** Where the focus goes once the files are read, e.g. the first problem found; the chooser
   * button when it returns nothing. */
  nextFocus?: () => HTMLElement | null
  onFiles: (files: File[]) => void
  children?: ReactNode
}) {
  const input = useRef<HTMLInputElement>(null)
  const zone = useRef<HTMLDivElement>(null)
  const chooser = useRef<HTMLButtonElement>(null)
  const [over, setOver] = useState(false)
  useFocusAfterBusy(Boolean(props.busy), zone, chooser, props.nextFocus)

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setOver(false)
    const files = [...event.dataTransfer.files]
    if (files.length) props.onFiles(files)
  }

  // Folder pickers take non-standard attributes React does not know by name.
  const folderProps = props.folder ? { webkitdirectory: '', directory: '' } : {}

  return (
    <div
      ref={zone}
      className={`drop ${over ? 'drop-over' : ''} ${props.busy ? 'drop-busy' : ''}`}
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p>{props.prompt}</p>
      <button
        ref={chooser}
        type="button"
        className="btn btn-secondary btn-small"
        onClick={() => input.current?.click()}
        disabled={props.busy}
      >
        {props.chooseLabel}
      </button>
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        accept={props.accept}
        multiple={props.folder}
        aria-label={props.inputLabel}
        tabIndex={-1}
        {...folderProps}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          // The same file chosen twice in a row must still count (after fixing it in Excel).
          e.target.value = ''
          if (files.length) props.onFiles(files)
        }}
      />
      {props.children}
    </div>
  )
}
