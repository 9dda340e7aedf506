/**
 * Step 1 of the New run screen: what to run. The templates known here, the one chosen (or a
 * marketplace listing), its input form, and "Get the input workbook" for it.
 *
 * A form's answer is shown only while its target is still the chosen one: each choice makes a
 * new target object, so a slow answer for an earlier choice (or one made before the screen was
 * reset) is recognised by identity and dropped, whether it brings the form or an error.
 */
import type { BridgeErrorInfo } from '../../../shared/bridge'
import type { RunTarget } from '../../../shared/run-target'
import { errorInfo } from '../errors'
import type { SliceContext } from './prepare-state'
import type { TargetData, TargetActions } from './target-types'
export type { TargetData, TargetActions } from './target-types'

type TemplateTarget = Extract<RunTarget, { kind: 'template' }>
type ListingTarget = Extract<RunTarget, { kind: 'listing' }>

export function initialTarget(): TargetData {
  return {
    templates: [],
    templatesOffline: false,
    templatesLoading: false,
    templatesError: null,
    target: null,
    template: null,
    templateLoading: false,
    templateError: null,
    listing: null,
    listingLoading: false,
    listingError: null,
    workbookSaving: false,
    workbookSaved: null,
    workbookSaveError: null,
  }
}

/** Whether `target` is still the one chosen (an answer for an earlier choice is dropped). */
function stillChosen(ctx: SliceContext, target: RunTarget) {
  return ctx.get().target === target
}

/**
 * Reads the chosen target's form: `show` says it in the state's own fields (loading, the form,
 * its error); an answer that comes once another target is chosen is dropped.
 */
async function loadChosen<T>(
  ctx: SliceContext,
  target: RunTarget,
  read: (environment: string) => Promise<T>,
  show: (loading: boolean, form: T | null, error: BridgeErrorInfo | null) => Partial<TargetData>,
) {
  const { environment } = ctx.get()
  if (!environment) return
  ctx.set(show(true, null, null))
  try {
    const form = await read(environment)
    if (stillChosen(ctx, target)) ctx.set(show(false, form, null))
  } catch (error) {
    if (stillChosen(ctx, target)) ctx.set(show(false, null, errorInfo(error)))
  }
}

function loadTemplate(ctx: SliceContext, target: TemplateTarget) {
  return loadChosen(
    ctx,
    target,
    (environment) => ctx.api.getTemplate({ environment, templateId: target.templateId }),
    (templateLoading, template, templateError) => ({
      templateLoading,
      template,
      templateError,
      // The address last asked for with this template here comes back with its form.
      ...(template ? { callbackUrl: template.callbackUrl } : {}),
    }),
  )
}

function loadListing(ctx: SliceContext, target: ListingTarget) {
  return loadChosen(
    ctx,
    target,
    (environment) => ctx.api.getListing({ environment, listingId: target.listingId }),
    (listingLoading, listing, listingError) => ({ listingLoading, listing, listingError }),
  )
}

function loadForm(ctx: SliceContext, target: RunTarget) {
  return target.kind === 'template' ? loadTemplate(ctx, target) : loadListing(ctx, target)
}

/** A new choice: what was made or planned for the previous one no longer applies. */
function retarget({ set }: SliceContext, target: RunTarget) {
  set({
    target,
    workbookSaved: null,
    workbookSaveError: null,
    plan: null,
    sent: null,
    // A mapping confirmed for the old target's fields does not fit the new one's.
    mapping: null,
    callbackUrl: '',
    restored: null,
  })
  // The check, its grid, mapping and errors were against the old target: the chosen workbook is
  // checked again against the new one, and nothing of the old answer stays on screen meanwhile.
  set({
    check: null,
    checkError: null,
    focus: null,
    markedUpSaved: null,
    markedUpError: null,
    planning: false,
    planError: null,
    sendError: null,
    workbookSaving: false,
  })
  if (target.kind === 'template') set({ listing: null, listingLoading: false, listingError: null })
  else set({ template: null, templateLoading: false, templateError: null })
}

export function targetActions(ctx: SliceContext): TargetActions {
  const { set, get, api } = ctx
  return {
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
      const target: TemplateTarget = { kind: 'template', templateId: id }
      retarget(ctx, target)
      await Promise.all([loadTemplate(ctx, target), get().checkAgain()])
    },
    async chooseListing(listingId, listingVersionId) {
      const target: ListingTarget = {
        kind: 'listing',
        listingId: listingId.trim(),
        listingVersionId: listingVersionId.trim(),
      }
      retarget(ctx, target)
      await Promise.all([loadListing(ctx, target), get().checkAgain()])
    },
    adoptWorkbookTarget(target) {
      set({ target })
      void loadForm(ctx, target)
    },
    async getInputWorkbook() {
      const { environment, target } = get()
      if (!environment || !target) return
      set({ workbookSaving: true, workbookSaveError: null, workbookSaved: null })
      try {
        const saved = await api.saveInputWorkbook({ environment, target })
        if (saved?.kind === 'bytes') ctx.download(saved)
        if (stillChosen(ctx, target)) set({ workbookSaving: false, workbookSaved: saved })
      } catch (error) {
        if (stillChosen(ctx, target))
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
  }
}
