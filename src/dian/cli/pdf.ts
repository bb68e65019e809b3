/**
 * `ecf dian pdf`: a DIAN document's XML (signed or not, ours or anyone's) → its printed representation, A4 or the
 * 80 mm POS strip. A thin adapter over `dianPdf` of the `ecf-kit/dian/pdf` entry.
 */
import { writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { dianPdf, type DianPdfFormat } from '../pdf/index.js';
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo, optionalFlag } from '../../shared/cli/command.js';

const OPTIONS = ['in', 'out', 'format', 'provider-name'] as const;
const FORMATS: readonly DianPdfFormat[] = ['a4', 'receipt80'];

/** `ecf dian pdf`: exit 0 when the PDF is written, 1 when the file is not a printable DIAN document, 2 on usage or I/O problems. */
export const dianPdfCommand: CliCommand = {
  name: 'dian pdf',
  summary: 'Printed representation (PDF) of a DIAN invoice, note, support document or POS document: A4, or the 80 mm POS strip',
  usage: 'ecf dian pdf --in document.xml --out file.pdf [--format a4|receipt80] [--provider-name NAME]',
  async run(args, io: CliIo) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !(OPTIONS as readonly string[]).includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length) throw new UsageError(`unexpected argument(s): ${positional.join(' ')} (the XML goes in --in)`);
    const file = requireFlag(flags, 'in');
    const out = requireFlag(flags, 'out');
    const format = (optionalFlag(flags, 'format') ?? 'a4') as DianPdfFormat;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${format}"`);
    const providerName = optionalFlag(flags, 'provider-name');

    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await io.readFile(file));
    } catch (e) {
      io.stderr(`ecf dian pdf: cannot read ${file} as UTF-8: ${(e as Error).message}\n`);
      return 2;
    }
    const r = await dianPdf(text, { format, deflate: (d) => deflateSync(d), ...(providerName ? { providerName } : {}) });
    if (!r.ok) {
      io.stderr(`ecf dian pdf: ${file}: ${r.message} (${r.code})\n`);
      return 1;
    }
    try {
      await writeFile(out, r.pdf);
    } catch (e) {
      io.stderr(`ecf dian pdf: cannot write ${out}: ${(e as Error).message}\n`);
      return 2;
    }
    io.stdout(`${r.model.title} ${r.model.number} (${r.model.code.label} ${r.model.code.value.slice(0, 12)}…): ${out} (${r.pdf.length} bytes, ${format})\n`);
    return 0;
  },
};
