/**
 * `ecf dian zip`: one signed XML → the zip DIAN's SendBillSync / SendNominaSync expect, both named by DIAN's rules,
 * written next to the XML (or to `--out`). A thin adapter over `dianDocumentZip` of the DIAN entry (src/dian/index.ts).
 */
import { deflateRawSync } from 'node:zlib';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DIAN_FILE_PREFIXES, dianDocumentZip, type DianCounterFormat, type DianFileKind } from '../index.js';
import { parseFlags, requireFlag, UsageError, type CliCommand, type CliIo, optionalFlag } from '../../shared/cli/command.js';

const OPTIONS = ['nit', 'provider', 'year', 'counter', 'kind', 'counter-format', 'date', 'out'] as const;
const KINDS = Object.keys(DIAN_FILE_PREFIXES) as DianFileKind[];

/** An integer flag: decimal digits, or hex with `0x` (`--counter 0xC`). */
function integer(flags: Record<string, string | true>, name: 'year' | 'counter'): number {
  const v = requireFlag(flags, name);
  if (!/^(?:\d+|0x[0-9a-f]+)$/i.test(v)) throw new UsageError(`--${name} must be an integer (decimal, or hex with 0x), got "${v}"`);
  return Number(v);
}

/** `ecf dian zip`: exit 0 when the zip is written, 2 on usage, input, read or write problems. */
export const dianZipCommand: CliCommand = {
  name: 'dian zip',
  summary:
    "Zip one signed XML for DIAN (deterministic: deflate, fixed timestamp), naming the XML and the zip by DIAN's rules; writes the zip next to the XML unless --out, prints both names",
  usage: `ecf dian zip --nit NIT --provider 000 --year 26 --counter N [--kind ${KINDS.join('|')}] [--counter-format hex|decimal] [--date yyyy-MM-dd] [--out file.zip] <signed.xml>`,
  async run(args, io: CliIo) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !(OPTIONS as readonly string[]).includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length !== 1) throw new UsageError(positional.length === 0 ? 'missing the XML file to zip' : 'one XML file per zip');
    const kind = (optionalFlag(flags, 'kind') ?? 'invoice') as DianFileKind;
    if (!KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}, got "${kind}"`);
    const format = optionalFlag(flags, 'counter-format');
    if (format !== undefined && format !== 'hex' && format !== 'decimal') throw new UsageError(`--counter-format must be hex or decimal, got "${format}"`);
    const provider = optionalFlag(flags, 'provider');
    const date = optionalFlag(flags, 'date');
    const out = optionalFlag(flags, 'out');
    const file = positional[0]!;

    let xml: Uint8Array;
    try {
      xml = await io.readFile(file);
    } catch (e) {
      io.stderr(`ecf dian zip: cannot read ${file}: ${(e as Error).message}\n`);
      return 2;
    }
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(xml);
    } catch {
      io.stderr(`ecf dian zip: ${file}: not valid UTF-8 (DIAN documents must be UTF-8)\n`);
      return 2;
    }
    const r = dianDocumentZip({
      kind,
      nit: requireFlag(flags, 'nit'),
      ...(provider === undefined ? {} : { provider }),
      year: integer(flags, 'year'),
      counter: integer(flags, 'counter'),
      ...(format === undefined ? {} : { counterFormat: format as DianCounterFormat }),
      xml,
      deflate: (data: Uint8Array) => deflateRawSync(data),
      ...(date === undefined ? {} : { date }),
    });
    if (!r.ok) {
      io.stderr(`ecf dian zip: ${r.field ? `--${r.field === 'counterFormat' ? 'counter-format' : r.field}: ` : ''}${r.message}\n`);
      return 2;
    }
    const target = out ?? join(dirname(file), r.value.names.zip);
    try {
      await writeFile(target, r.value.zip);
    } catch (e) {
      io.stderr(`ecf dian zip: cannot write ${target}: ${(e as Error).message}\n`);
      return 2;
    }
    io.stdout(`xml: ${r.value.names.xml}\nzip: ${r.value.names.zip}\nwritten: ${target} (${r.value.zip.length} bytes)\n`);
    return 0;
  },
};
