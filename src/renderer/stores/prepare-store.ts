/**
 * The "New run" domain: what to run (a template or a listing), its input form, the workbook the
 * user dropped and its check, run-scoped values, the files its file cells name, and the uploads.
 * The workbook stays the source of truth: nothing here edits rows; "Check again" reads the file
 * again after the user fixed it.
 */
import { createStore } from 'zustand/vanilla'
import type {
  BridgeApi,
  BridgeErrorInfo,
  CheckProgressUpdate,
  FileRef,
  ListingView,
  PendingSubmissionView,
  PrepareTarget,
  SavedFileView,
  SubmissionPlanView,
  SubmissionUpdate,
  SubmissionView,
  TemplateChoice,
  TemplateView,
  UploadProgressUpdate,
  WorkbookCheckView,
} from '../../shared/bridge'
import { errorInfo } from './errors'
import { resolveFileCells, type FolderFiles } from './prepare-selectors'

export type CheckState = 'idle' | 'reading' | 'done' | 'error'

/** One file being uploaded, by its path relative to the dropped folder. */
export interface UploadItem {
  name: string
  state: UploadProgressUpdate['state'] | 'waiting'
  sentBytes: number
  totalBytes: number
  inputAssetId: string
}

export interface PrepareData {
  environment: string | null
  templates: TemplateChoice[]
  templatesOffline: boolean
  templatesLoading: boolean
  templatesError: BridgeErrorInfo | null

  target: PrepareTarget | null
  template: TemplateView | null
  templateLoading: boolean
  templateError: BridgeErrorInfo | null

  /** "Get the input workbook". */
  workbookSaving: boolean
  workbookSaved: SavedFileView | null
  workbookSaveError: BridgeErrorInfo | null

  /** The workbook the user dropped or chose, and its check. */
  file: File | null
  checkState: CheckState
  checkId: string
  rowsRead: number
  check: WorkbookCheckView | null
  checkError: BridgeErrorInfo | null
  /** The cell the grid shows and highlights (from the error list). */
  focus: { rowPosition: number; column: number | null; seq: number } | null

  /** Run-scoped values typed in the small form, by field key. */
  runValues: Record<string, string>

  markedUpSaving: boolean
  markedUpSaved: SavedFileView | null
  markedUpError: BridgeErrorInfo | null

  /** Browser mode: files of the folder the user dropped, by path relative to it. */
  folder: FolderFiles
  uploads: UploadItem[]
  uploading: boolean
  uploadError: BridgeErrorInfo | null
  overall: UploadProgressUpdate['overall'] | null

  /** The buyer's view of the chosen listing (name, fee, terms, form). */
  listing: ListingView | null
  listingLoading: boolean
  listingError: BridgeErrorInfo | null

  /** Sending: all rows, or a pilot of the first N. */
  pilot: { on: boolean; rows: number }
  planning: boolean
  plan: SubmissionPlanView | null
  planError: BridgeErrorInfo | null
  sending: boolean
  sendError: BridgeErrorInfo | null
  sent: SubmissionView | null
  /** Submissions journaled but not answered yet (they survive a restart). */
  pending: PendingSubmissionView[]
}

export interface PrepareActions {
  open(environment: string): Promise<void>
  loadTemplates(): Promise<void>
  chooseTemplate(templateId: string): Promise<void>
  chooseListing(listingId: string, listingVersionId: string): Promise<void>
  getInputWorkbook(): Promise<void>
  openSaved(path: string): Promise<void>
  takeFile(file: File): Promise<void>
  checkAgain(): Promise<void>
  cancelCheck(): Promise<void>
  applyProgress(update: CheckProgressUpdate): void
  focusProblem(rowPosition: number, column: number | null): void
  setRunValue(key: string, value: string): void
  applyRunValues(): Promise<void>
  saveMarkedUp(): Promise<void>
  addFolder(files: FolderFiles): void
  uploadFiles(): Promise<void>
  applyUploadProgress(update: UploadProgressUpdate): void
  setPilot(pilot: { on: boolean; rows: number }): void
  /** Reads the workbook for sending and works out the cost: opens the confirmation. */
  planSend(): Promise<void>
  closePlan(): void
  /** The explicit yes: sends the plan. Resolves with the submission, null when refused. */
  confirmSend(options: { maxCostT?: number; again?: boolean }): Promise<SubmissionView | null>
  loadPending(): Promise<void>
  applySubmissionUpdate(update: SubmissionUpdate): void
  reset(): void
}

export type PrepareState = PrepareData & PrepareActions

export interface PrepareDeps {
  api: BridgeApi
  /** A dropped File as the engine takes it (its path in the desktop app, its bytes in a browser). */
  toFileRef(file: File): Promise<FileRef>
  /** Hands bytes the engine made to the browser as a download. */
  download(file: Extract<SavedFileView, { kind: 'bytes' }>): void
  newId?: () => string
}

function initial(): PrepareData {
  return {
    environment: null,
    templates: [],
    templatesOffline: false,
    templatesLoading: false,
    templatesError: null,
    target: null,
    template: null,
    templateLoading: false,
    templateError: null,
    workbookSaving: false,
    workbookSaved: null,
    workbookSaveError: null,
    file: null,
    checkState: 'idle',
    checkId: '',
    rowsRead: 0,
    check: null,
    checkError: null,
    focus: null,
    runValues: {},
    markedUpSaving: false,
    markedUpSaved: null,
    markedUpError: null,
    folder: new Map(),
    uploads: [],
    uploading: false,
    uploadError: null,
    overall: null,
    listing: null,
    listingLoading: false,
    listingError: null,
    pilot: { on: false, rows: 5 },
    planning: false,
    plan: null,
    planError: null,
    sending: false,
    sendError: null,
    sent: null,
    pending: [],
  }
}

function randomId(): string {
  const c = globalThis.crypto
  if (c && 'randomUUID' in c) return c.randomUUID()
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
}

export function createPrepareStore(deps: PrepareDeps) {
  const { api } = deps
  const newId = deps.newId ?? randomId
  return createStore<PrepareState>()((set, get) => {
    let templateGeneration = 0
    let focusSeq = 0

    async function runCheck(file: File, target: PrepareTarget | null) {
      const { environment, checkId: previous, checkState } = get()
      if (!environment) return
      if (checkState === 'reading' && previous)
        api.cancelCheck({ checkId: previous }).catch(() => {})
      const checkId = newId()
      set({
        file,
        checkId,
        checkState: 'reading',
        rowsRead: 0,
        checkError: null,
        markedUpSaved: null,
        markedUpError: null,
        focus: null,
      })
      let ref: FileRef
      try {
        ref = await deps.toFileRef(file)
      } catch {
        if (get().checkId !== checkId) return
        set({
          checkState: 'error',
          checkError: {
            code: 'not-found',
            message: `The browser could not read “${file.name}” (it may have changed since you chose it).`,
            nextStep: 'Choose or drop the workbook again.',
          },
        })
        return
      }
      const runValues = Object.fromEntries(
        Object.entries(get().runValues).filter(([, v]) => v.trim() !== ''),
      )
      try {
        const check = await api.checkWorkbook({
          environment,
          checkId,
          file: ref,
          ...(target ? { target } : {}),
          ...(Object.keys(runValues).length ? { runValues } : {}),
        })
        if (get().checkId !== checkId) return
        const values = { ...get().runValues }
        set({ check, checkState: 'done', rowsRead: check.rowCount, runValues: values })
        // A workbook made by the app named its template: show that template's form too.
        if (!get().target && check.target && check.targetFromWorkbook) {
          const { name: _name, ...picked } = check.target
          void _name
          set({ target: picked })
          if (picked.kind === 'template') void loadTemplate(picked.templateId)
          else void loadListing(picked.listingId)
        }
      } catch (error) {
        if (get().checkId !== checkId) return
        set({ checkState: 'error', checkError: errorInfo(error) })
      }
    }

    async function loadTemplate(templateId: string) {
      const { environment } = get()
      if (!environment) return
      const mine = ++templateGeneration
      set({ templateLoading: true, templateError: null, template: null })
      try {
        const template = await api.getTemplate({ environment, templateId })
        if (mine !== templateGeneration) return
        set({ template, templateLoading: false })
      } catch (error) {
        if (mine !== templateGeneration) return
        set({ templateLoading: false, templateError: errorInfo(error) })
      }
    }

    async function loadListing(listingId: string) {
      const { environment } = get()
      if (!environment) return
      set({ listing: null, listingLoading: true, listingError: null })
      try {
        const listing = await api.getListing({ environment, listingId })
        if (get().target?.kind !== 'listing') return
        set({ listing, listingLoading: false })
      } catch (error) {
        set({ listingLoading: false, listingError: errorInfo(error) })
      }
    }

    async function retarget(target: PrepareTarget) {
      set({ target, workbookSaved: null, workbookSaveError: null, plan: null, sent: null })
      if (target.kind === 'template') set({ listing: null, listingError: null })
      const { file } = get()
      if (file) await runCheck(file, target)
    }

    return {
      ...initial(),
      async open(environment) {
        if (get().environment === environment) return
        const { checkId, checkState } = get()
        if (checkState === 'reading' && checkId) api.cancelCheck({ checkId }).catch(() => {})
        set({ ...initial(), environment })
        await Promise.all([get().loadTemplates(), get().loadPending()])
      },
      async loadTemplates() {
        const { environment } = get()
        if (!environment) return
        set({ templatesLoading: true, templatesError: null })
        try {
          const list = await api.listTemplates({ environment })
          if (get().environment !== environment) return
          set({ templates: list.items, templatesOffline: list.offline, templatesLoading: false })
        } catch (error) {
          if (get().environment !== environment) return
          set({ templatesLoading: false, templatesError: errorInfo(error) })
        }
      },
      async chooseTemplate(templateId) {
        const id = templateId.trim()
        if (!id) return
        const load = loadTemplate(id)
        await Promise.all([load, retarget({ kind: 'template', templateId: id })])
      },
      async chooseListing(listingId, listingVersionId) {
        templateGeneration++
        set({ template: null, templateLoading: false, templateError: null })
        await Promise.all([
          loadListing(listingId.trim()),
          retarget({
            kind: 'listing',
            listingId: listingId.trim(),
            listingVersionId: listingVersionId.trim(),
          }),
        ])
      },
      async getInputWorkbook() {
        const { environment, target } = get()
        if (!environment || !target) return
        set({ workbookSaving: true, workbookSaveError: null, workbookSaved: null })
        try {
          const saved = await api.saveInputWorkbook({ environment, target })
          if (saved?.kind === 'bytes') deps.download(saved)
          set({ workbookSaving: false, workbookSaved: saved })
        } catch (error) {
          set({ workbookSaving: false, workbookSaveError: errorInfo(error) })
        }
      },
      async openSaved(path) {
        try {
          await api.openSavedFile({ path })
        } catch (error) {
          set({ workbookSaveError: errorInfo(error) })
        }
      },
      async takeFile(file) {
        set({ uploads: [], overall: null, uploadError: null })
        await runCheck(file, get().target)
      },
      async checkAgain() {
        const { file, target } = get()
        if (file) await runCheck(file, target)
      },
      async cancelCheck() {
        const { checkId, checkState } = get()
        if (checkState !== 'reading') return
        set({ checkState: 'idle', checkId: '', rowsRead: 0, file: null, check: null })
        await api.cancelCheck({ checkId }).catch(() => {})
      },
      applyProgress(update) {
        if (update.checkId !== get().checkId || get().checkState !== 'reading') return
        set({ rowsRead: Math.max(get().rowsRead, update.rowsRead) })
      },
      focusProblem(rowPosition, column) {
        focusSeq += 1
        set({ focus: { rowPosition, column, seq: focusSeq } })
      },
      setRunValue(key, value) {
        set({ runValues: { ...get().runValues, [key]: value } })
      },
      async applyRunValues() {
        await get().checkAgain()
      },
      async saveMarkedUp() {
        const { check } = get()
        if (!check) return
        set({ markedUpSaving: true, markedUpError: null, markedUpSaved: null })
        try {
          const saved = await api.saveMarkedUpCopy({ checkId: check.checkId })
          if (saved?.kind === 'bytes') deps.download(saved)
          set({ markedUpSaving: false, markedUpSaved: saved })
        } catch (error) {
          set({ markedUpSaving: false, markedUpError: errorInfo(error) })
        }
      },
      addFolder(files) {
        const folder = new Map(get().folder)
        for (const [path, file] of files) folder.set(path, file)
        set({ folder })
      },
      async uploadFiles() {
        const { environment, check, folder } = get()
        if (!environment || !check) return
        const resolved = resolveFileCells(check.fileCells, folder).filter(
          (c) => c.file !== null && c.state !== 'url',
        )
        // One upload per distinct file (the engine also skips contents it already sent).
        const unique = new Map<string, File>()
        for (const cell of resolved) if (cell.file) unique.set(cell.key, cell.file)
        if (unique.size === 0) return
        const previous = new Map(get().uploads.map((u) => [u.name, u]))
        const todo = [...unique].filter(([name]) => !previous.get(name)?.inputAssetId)
        set({
          uploading: true,
          uploadError: null,
          uploads: [...unique].map(
            ([name, file]) =>
              previous.get(name) ?? {
                name,
                state: 'waiting',
                sentBytes: 0,
                totalBytes: file.size,
                inputAssetId: '',
              },
          ),
        })
        if (todo.length === 0) {
          set({ uploading: false })
          return
        }
        try {
          const refs: FileRef[] = []
          for (const [name, file] of todo) {
            const ref = await deps.toFileRef(file)
            refs.push({ ...ref, name })
          }
          const result = await api.uploadFiles({ environment, files: refs })
          const ids = new Map(result.assets.map((a) => [a.name, a]))
          set({
            uploading: false,
            uploads: get().uploads.map((u) => {
              const asset = ids.get(u.name)
              return asset
                ? {
                    ...u,
                    state: asset.reused ? 'reused' : 'done',
                    inputAssetId: asset.inputAssetId,
                    sentBytes: asset.sizeBytes,
                    totalBytes: asset.sizeBytes,
                  }
                : u
            }),
          })
        } catch (error) {
          set({
            uploading: false,
            uploadError: errorInfo(error),
            uploads: get().uploads.map((u) =>
              u.inputAssetId ? u : { ...u, state: u.state === 'waiting' ? 'waiting' : 'failed' },
            ),
          })
        }
      },
      applyUploadProgress(update) {
        if (update.environment !== get().environment || !get().uploading) return
        set({
          overall: update.overall,
          uploads: get().uploads.map((u) =>
            u.name === update.name
              ? {
                  ...u,
                  state: update.state,
                  sentBytes: update.sentBytes,
                  totalBytes: update.totalBytes,
                }
              : u,
          ),
        })
      },
      setPilot(pilot) {
        set({ pilot: { on: pilot.on, rows: Math.max(1, Math.floor(pilot.rows) || 1) } })
      },
      async planSend() {
        const { environment, file, check, pilot } = get()
        const target = check?.target
        if (!environment || !file || !target) return
        set({ planning: true, planError: null, plan: null, sendError: null, sent: null })
        try {
          const ref = await deps.toFileRef(file)
          const runValues = Object.fromEntries(
            Object.entries(get().runValues).filter(([, v]) => v.trim() !== ''),
          )
          const plan = await api.planSubmission({
            environment,
            file: ref,
            target:
              target.kind === 'template'
                ? { kind: 'template', templateId: target.templateId }
                : {
                    kind: 'listing',
                    listingId: target.listingId,
                    listingVersionId: target.listingVersionId,
                  },
            ...(pilot.on ? { pilotRows: pilot.rows } : {}),
            ...(Object.keys(runValues).length ? { runValues } : {}),
            ...(ref.kind === 'bytes' ? { fileAssets: uploadedFileCells(get()) } : {}),
          })
          set({ planning: false, plan })
        } catch (error) {
          set({ planning: false, planError: errorInfo(error) })
        }
      },
      closePlan() {
        if (get().sending) return
        set({ plan: null, sendError: null })
      },
      async confirmSend(options) {
        const { environment, plan } = get()
        if (!environment || !plan?.planId || get().sending) return null
        set({ sending: true, sendError: null })
        try {
          const sent = await api.confirmSubmission({
            environment,
            planId: plan.planId,
            confirmed: true,
            ...(options.maxCostT !== undefined ? { maxCostT: options.maxCostT } : {}),
            ...(options.again ? { again: true } : {}),
          })
          set({ sending: false, sent, plan: null })
          void get().loadPending()
          return sent
        } catch (error) {
          set({ sending: false, sendError: errorInfo(error) })
          void get().loadPending()
          return null
        }
      },
      async loadPending() {
        const { environment } = get()
        if (!environment) return
        try {
          const list = await api.listPendingSubmissions({ environment })
          if (get().environment === environment) set({ pending: list.items })
        } catch {
          // The list is a courtesy: the journal resends by itself; try again next time.
        }
      },
      applySubmissionUpdate(update) {
        if (update.environment !== get().environment) return
        if (update.state === 'accepted' || update.state === 'refused') {
          set({
            pending: get().pending.filter((p) => p.clientRequestId !== update.clientRequestId),
          })
        } else void get().loadPending()
      },
      reset() {
        set({ ...initial(), environment: get().environment, templates: get().templates })
      },
    }
  })
}

export type PrepareStore = ReturnType<typeof createPrepareStore>

/**
 * The uploads made for a checked workbook's file cells, by each cell's text as written: what a
 * plan for a workbook sent as bytes puts in those cells. Cells without an upload are left out
 * (the plan lists them as row errors).
 */
function uploadedFileCells(state: PrepareData): { path: string; inputAssetId: string }[] {
  if (!state.check) return []
  const ids = new Map(state.uploads.filter((u) => u.inputAssetId).map((u) => [u.name, u]))
  const out = new Map<string, string>()
  for (const cell of resolveFileCells(state.check.fileCells, state.folder)) {
    const id = cell.file ? ids.get(cell.key)?.inputAssetId : undefined
    if (id && !out.has(cell.value)) out.set(cell.value, id)
  }
  return [...out].map(([path, inputAssetId]) => ({ path, inputAssetId }))
}
