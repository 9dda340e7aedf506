import { describe, expect, it } from 'vitest'
import { terminalText } from '../../src/shared/format/terminal'

describe('terminalText', () => {
  it('drops escape sequences whole and other control characters, keeps text, tabs and line breaks', () => {
    const esc = '\u001b'
    expect(terminalText(`${esc}]0;new title\u0007Name${esc}[2J${esc}[1;31m!${esc}[0m`)).toBe(
      'Name!',
    )
    expect(terminalText(`a\tb\nc\rd\u0000e\u007ff\u009b2Jg`)).toBe('a\tb\ncdefg')
    expect(terminalText('left \u202eright\u202c café 漢字 😀')).toBe('left right café 漢字 😀')
  })
})
