/**
 * The address a template run may ask the service to call when it ends. One rule for the window,
 * the engine and the command line: https anywhere, or http only to this computer (127.0.0.0/8,
 * localhost, [::1]), never a user name or password in it, at most 2,048 characters. An address
 * that leaves this computer unencrypted, or carries a password, would hand every run's summary
 * (and the password) to whoever is on the way.
 */

export const MAX_CALLBACK_URL_LENGTH = 2048

/** Why an address is refused, in words, with what to do. */
export interface CallbackAddressProblem {
  message: string
  nextStep: string
}

const SHOWN_CHARACTERS = 80

/** The address as a message quotes it: cut when long. */
function quoted(text: string): string {
  return text.length > SHOWN_CHARACTERS ? `“${text.slice(0, SHOWN_CHARACTERS)}…”` : `“${text}”`
}

/** Whether a URL's host (as `URL` writes it) is this computer. */
function isThisComputer(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/**
 * Null when `text` (trimmed) is empty (no call asked for) or an address the service may be given;
 * otherwise what is wrong with it. The length is checked before the address is read.
 */
export function callbackAddressProblem(text: string): CallbackAddressProblem | null {
  const address = text.trim()
  if (address === '') return null
  if (address.length > MAX_CALLBACK_URL_LENGTH) {
    return {
      message: `The address to call when the run ends is ${address.length.toLocaleString('en-US')} characters long; at most ${MAX_CALLBACK_URL_LENGTH.toLocaleString('en-US')} are taken.`,
      nextStep: 'Use a shorter address.',
    }
  }
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return {
      message: `${quoted(address)} is not a full web address, so the service could not call it when the run ends.`,
      nextStep: 'Give the whole address, starting with https://.',
    }
  }
  if (url.username !== '' || url.password !== '') {
    // Not quoted: the message would show the password.
    return {
      message:
        'The address to call when the run ends has a user name or password in it, which would be sent along with every run.',
      nextStep: 'Use the address without the part before “@”.',
    }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      message: `The address to call when the run ends must start with https://; ${quoted(address)} does not.`,
      nextStep: 'Give an https:// address (or http:// to this computer).',
    }
  }
  if (url.protocol === 'http:' && !isThisComputer(url.hostname)) {
    return {
      message: `${quoted(address)} would be called without encryption on another computer: http:// is taken only for this computer.`,
      nextStep:
        'Use its https:// address, or an address on this computer (localhost or 127.0.0.1).',
    }
  }
  return null
}
