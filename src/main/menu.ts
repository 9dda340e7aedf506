/**
 * The application menu. A pure function of the platform and a few actions, so it is easy to
 * read and test; index.ts turns it into a Menu.
 */
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  reload: () => void
  openHelp: () => void
  showDataFolder: () => void
}

export function menuTemplate(
  platform: string,
  actions: MenuActions,
  devTools = false,
): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin'
  const template: MenuItemConstructorOptions[] = []
  if (isMac) {
    template.push({
      label: 'Skill Runner',
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    })
  }
  template.push({
    label: 'File',
    submenu: [
      { label: 'Show Data Folder', click: () => actions.showDataFolder() },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  })
  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  })
  const view: MenuItemConstructorOptions[] = [
    { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: () => actions.reload() },
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ]
  if (devTools) view.push({ type: 'separator' }, { role: 'toggleDevTools' })
  template.push({ label: 'View', submenu: view })
  template.push({
    label: 'Window',
    submenu: [{ role: 'minimize' }, isMac ? { role: 'zoom' } : { role: 'close' }],
  })
  template.push({
    role: 'help',
    submenu: [{ label: 'Skill Runner Help', click: () => actions.openHelp() }],
  })
  return template
}
