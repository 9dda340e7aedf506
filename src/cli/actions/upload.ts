/** `upload FILE`: one input asset (reused when the same content was uploaded before). */
import { resolve } from 'node:path'
import type { CommandContext, ParsedArgs } from '../command'

export async function upload(ctx: CommandContext, args: ParsedArgs) {
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
}
