import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * Text for the PDF voucher in embedded Unicode fonts (D21): the standard PDF fonts only cover Latin-1, so a note
 * like "ñandú ✓ 🧉" came out as garbage. DejaVu Sans covers Spanish, ✓ and most symbols; Noto Emoji
 * (monochrome outlines, so a TrueType font pdfkit can embed) covers emoji. Both ship in npm packages pinned in
 * package.json and are read from node_modules: nothing is downloaded at run time.
 *
 * pdfkit has no font fallback, so text is split into runs by which font has each grapheme, and laid out here,
 * run by run at explicit positions. Every run keeps its real characters in the PDF text layer (pdfkit writes a
 * ToUnicode map for embedded fonts), so copying or extracting the text gives back what was written. A grapheme
 * neither font has (CJK, say) is drawn as "�", and extracts as "�": what the reader sees is what a copy gives.
 * An ActualText span would carry the original, but pdfkit can only open it outside its text transform, and
 * poppler then places the text elsewhere on the page; a wrong order is worse than an honest replacement. The
 * HTML and JSON forms keep the original.
 */
const require = createRequire(import.meta.url);
const FILES = {
  text: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  emoji: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
};
export type FontName = keyof typeof FILES;

interface LoadedFont {
  data: Buffer;
  has(cp: number): boolean;
  /** Ascent as a fraction of the font size, to put runs of different fonts on one baseline. */
  ascent: number;
}

let loaded: Record<FontName, LoadedFont> | null = null;

/** Read once per process: the files are ~2 MB together and never change while it runs. */
function fonts(): Record<FontName, LoadedFont> {
  if (loaded) return loaded;
  const load = (file: string): LoadedFont => {
    const data = readFileSync(file);
    const font = fontkit.create(data) as fontkit.Font;
    return { data, has: (cp) => font.hasGlyphForCodePoint(cp), ascent: font.ascent / font.unitsPerEm };
  };
  loaded = { text: load(FILES.text), bold: load(FILES.bold), emoji: load(FILES.emoji) };
  return loaded;
}

export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const [name, f] of Object.entries(fonts())) doc.registerFont(name, f.data);
}

const REPLACEMENT = '\uFFFD';
interface Run {
  font: FontName;
  text: string;
}

const graphemes = new Intl.Segmenter('es', { granularity: 'grapheme' });
const EMOJI_STYLE = /\p{Emoji_Presentation}|\uFE0F/u;

/** Emoji presentation goes to the emoji font even where DejaVu has a text-style glyph (❤️ vs ❤). */
function fontFor(g: string, base: FontName): FontName | null {
  const cp = g.codePointAt(0)!;
  const f = fonts();
  if (EMOJI_STYLE.test(g) && f.emoji.has(cp)) return 'emoji';
  if (f[base].has(cp)) return base;
  if (f.emoji.has(cp)) return 'emoji';
  return null;
}

function toRuns(text: string, base: FontName): Run[] {
  const runs: Run[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const found = fontFor(segment, base);
    const font = found ?? base;
    const shown = found ? segment : REPLACEMENT;
    const last = runs.at(-1);
    if (last && last.font === font) last.text += shown;
    else runs.push({ font, text: shown });
  }
  return runs;
}

export interface TextStyle {
  font: 'text' | 'bold';
  size: number;
  color: string;
}

const width = (doc: PDFKit.PDFDocument, r: Run, size: number) => doc.font(r.font).fontSize(size).widthOfString(r.text);

/** Words with the spaces that follow them, so a line can break after any of them and keep its spacing. */
function words(line: string, base: FontName): Run[][] {
  return (line.match(/\S+\s*|\s+/g) ?? []).map((w) => toRuns(w, base));
}

/** Splits a word wider than the column at grapheme boundaries (a long CBU, a pasted URL). */
function splitWide(doc: PDFKit.PDFDocument, word: Run[], size: number, max: number): Run[][] {
  const pieces: Run[][] = [[]];
  let used = 0;
  for (const run of word) {
    for (const { segment } of graphemes.segment(run.text)) {
      const part: Run = { ...run, text: segment };
      const w = width(doc, part, size);
      if (used + w > max && pieces.at(-1)!.length > 0) {
        pieces.push([]);
        used = 0;
      }
      pieces.at(-1)!.push(part);
      used += w;
    }
  }
  return pieces;
}

/** Greedy line filling over words; newlines in the text start new lines (D30 allows them in notes). */
function layout(doc: PDFKit.PDFDocument, text: string, style: TextStyle, max: number): Run[][] {
  const lines: Run[][] = [];
  for (const paragraph of text.replace(/\t/g, ' ').split('\n')) {
    let line: Run[] = [];
    let used = 0;
    for (const word of words(paragraph, style.font)) {
      const w = word.reduce((s, r) => s + width(doc, r, style.size), 0);
      const visible = word.reduce((s, r) => s + width(doc, { ...r, text: r.text.trimEnd() }, style.size), 0);
      if (used + visible > max && line.length > 0) {
        lines.push(line);
        line = [];
        used = 0;
      }
      if (visible > max) {
        const pieces = splitWide(doc, word, style.size, max);
        lines.push(...pieces.slice(0, -1));
        line = pieces.at(-1)!;
        used = line.reduce((s, r) => s + width(doc, r, style.size), 0);
        continue;
      }
      line.push(...word);
      used += w;
    }
    lines.push(line);
  }
  return lines;
}

/** Line height of the base font at `size`: emoji sit on the same baseline and do not stretch the line. */
export function lineHeight(doc: PDFKit.PDFDocument, style: Pick<TextStyle, 'font' | 'size'>): number {
  return doc.font(style.font).fontSize(style.size).currentLineHeight(true);
}

/** The height `drawText` will use, to keep a row on one page. */
export function textHeight(doc: PDFKit.PDFDocument, text: string, maxWidth: number, style: TextStyle): number {
  return layout(doc, text, style, maxWidth).length * lineHeight(doc, style);
}

/**
 * Draws `text` at (x, y) within `maxWidth`, wrapping, and returns the height used. Each run is placed on the
 * base font's baseline, so glyphs of the two fonts line up.
 */
export function drawText(doc: PDFKit.PDFDocument, text: string, x: number, y: number, maxWidth: number, style: TextStyle): number {
  const lh = lineHeight(doc, style);
  const baselineOffset = fonts()[style.font].ascent * style.size;
  const lines = layout(doc, text, style, maxWidth);
  doc.fillColor(style.color);
  lines.forEach((line, i) => {
    let cx = x;
    const baseline = y + i * lh + baselineOffset;
    for (const run of line) {
      doc.font(run.font).fontSize(style.size).text(run.text, cx, baseline, { lineBreak: false, baseline: 'alphabetic' });
      cx += doc.widthOfString(run.text);
    }
  });
  return lines.length * lh;
}
