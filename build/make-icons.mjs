// Draws the Skill Runner icon (a rounded square with a prompt chevron and a cursor line) and
// writes it as PNG files, with nothing but zlib: build/icon.png (1024 px, from which
// electron-builder derives the Windows .ico and macOS .icns), build/icons/<n>x<n>.png for Linux,
// and resources/icons/ for the window icon at run time.
//   node build/make-icons.mjs
import { deflateSync } from 'node:zlib'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buffer) {
  let c = 0xffffffff
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}
function png(size, rgba) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0 // no filter
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

// Shapes in a 32 x 32 design space (the same drawing as the logo in the app).
function roundedSquareDistance(x, y) {
  const r = 7.5
  const qx = Math.abs(x - 16) - (15 - r)
  const qy = Math.abs(y - 16) - (15 - r)
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r
}
function segmentDistance(x, y, ax, ay, bx, by) {
  const px = x - ax
  const py = y - ay
  const dx = bx - ax
  const dy = by - ay
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)))
  return Math.hypot(px - t * dx, py - t * dy)
}
function markDistance(x, y) {
  const half = 1.45
  return (
    Math.min(
      segmentDistance(x, y, 9, 10.5, 15, 16),
      segmentDistance(x, y, 15, 16, 9, 21.5),
      segmentDistance(x, y, 17, 22, 24, 22),
    ) - half
  )
}

// Background: a calm blue with a soft vertical gradient; mark: white.
function colourAt(x, y) {
  const inside = roundedSquareDistance(x, y)
  if (inside > 0) return null
  const t = y / 32
  const bg = [Math.round(52 - 14 * t), Math.round(104 - 18 * t), Math.round(214 - 20 * t)]
  return markDistance(x, y) <= 0 ? [255, 255, 255] : bg
}

function draw(size) {
  const samples = size >= 256 ? 3 : 4
  const rgba = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) / size) * 32
          const y = ((py + (sy + 0.5) / samples) / size) * 32
          const c = colourAt(x, y)
          if (!c) continue
          r += c[0]
          g += c[1]
          b += c[2]
          a += 1
        }
      }
      const i = (py * size + px) * 4
      if (a > 0) {
        rgba[i] = Math.round(r / a)
        rgba[i + 1] = Math.round(g / a)
        rgba[i + 2] = Math.round(b / a)
        rgba[i + 3] = Math.round((255 * a) / (samples * samples))
      }
    }
  }
  return png(size, rgba)
}

function write(path, data) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, data)
}

const images = new Map()
for (const size of [1024, 512, 256, 128, 64, 48, 32, 16]) images.set(size, draw(size))
write(join(root, 'build', 'icon.png'), images.get(1024))
for (const size of [512, 256, 128, 64, 48, 32, 16]) {
  write(join(root, 'build', 'icons', `${size}x${size}.png`), images.get(size))
}
write(join(root, 'resources', 'icons', '512x512.png'), images.get(512))
write(join(root, 'resources', 'icons', '256x256.png'), images.get(256))
console.log('icons written to build/ and resources/icons/')
