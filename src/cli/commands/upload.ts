/** `upload FILE`: one input asset (reused when the same content was uploaded before). */
import { resolve } from 'node:path'
import type { Command } from '../command'

export const upload: Command = {
  name: 'upload',
  summary: 'Upload one input file; prints its input asset (the same content is uploaded once).',
  usage: 'upload FILE',
  positionals: { min: 1, max: 1, names: 'a FILE' },
  async run(ctx, args) {
    const { engine, connection } = await ctx.session()
    const path = resolve(args.positionals[0]!)
    const bar = ctx.out.bar('uploading', 'bytes')
    const { asset, reused } = await engine.uploads.file(connection, path, {
      signal: ctx.signal,
      onProgress: (p) => {
        if (p.state === 'uploading' && p.totalBytes > 0) bar.update(p.sentBytes, p.totalBytes)
      },
    })
    ctx.out.endProgress()
    if (reused) ctx.out.note(`${asset.filename} was uploaded before; reusing ${asset.inputAssetId}`)
    ctx.out.result(
      asset,
      () => `${asset.inputAssetId}  ${asset.filename}  ${asset.mimeType}  ${asset.sizeBytes} bytes`,
    )
  },
}
