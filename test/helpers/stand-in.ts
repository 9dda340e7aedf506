/**
 * Test helper: a handle a test file takes while its tests are collected, for something its
 * beforeAll starts later (a sandbox, the end-to-end app, an engine that a test may reopen).
 */

/**
 * An object that forwards every read to what `current` returns at the time of the read, its
 * methods bound to that object, and passing for one of its class (`instanceof`, which Playwright
 * checks of a page it is handed). `current` throws where the thing has not started yet, so reading
 * the handle too early says so instead of failing on an undefined.
 */
export function standIn<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const target = current()
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
    getPrototypeOf: () => Object.getPrototypeOf(current()) as object | null,
  })
}
