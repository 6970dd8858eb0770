// mjml ships no types: the one call template.ts makes.
declare module 'mjml' {
  interface MjmlResult {
    html: string;
    errors: Array<{ formattedMessage: string }>;
  }
  export default function mjml2html(
    input: string,
    options?: { validationLevel?: 'strict' | 'soft' | 'skip'; minify?: boolean },
  ): Promise<MjmlResult>;
}
