import { escapeHtml } from './escapeHtml.ts';

/**
 * Untrusted text (object names, problem messages, commit subjects) made inert inside a Markdown PR comment:
 * HTML is escaped, Markdown punctuation is backslash-escaped (no links, images, emphasis, table cells or
 * code spans can be opened), newlines cannot start a new block, and `@user`, `https://` and `www.` get a zero-width
 * space so a config file cannot ping people or plant a clickable link in the comment (GitHub links a bare `www.`).
 */
export function escapeMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/[\\`*_{}[\]()#+!|~]/g, (c) => `\\${c}`)
    .replace(/@/g, '@\u200b')
    .replace(/:\/\//g, ':\u200b//')
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}\u200b.`);
}
