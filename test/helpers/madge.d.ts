// The part of madge's API the import-circle test uses (madge ships no types).
declare module 'madge' {
  interface MadgeResult {
    /** Each circle as the list of files it goes through. */
    circular(): string[][]
  }
  export default function madge(
    path: string,
    config?: { fileExtensions?: string[]; tsConfig?: string },
  ): Promise<MadgeResult>
}
