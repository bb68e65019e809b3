/**
 * `ecf dian hash`: recompute the CUFE / CUDE / CUDS / event CUDE (and the software security code) of UBL files and
 * compare them with what each file declares. A thin adapter over `readUbl` and `computeDocumentCodes` of the DIAN
 * entry (src/dian/index.ts).
 */
import { computeDocumentCodes, readUbl, type DocumentCodeKeys, type DocumentCodes } from '../index.js';
import { parseFlags, UsageError, type CliCommand, type CliIo } from '../../shared/cli/command.js';

const OPTIONS = ['technical-key', 'pin', 'software-id'] as const;

function option(flags: Record<string, string | true>, name: (typeof OPTIONS)[number]): string | undefined {
  const v = flags[name];
  if (v === true || v === '') throw new UsageError(`--${name} needs a value`);
  return v;
}

const KIND_LABEL: Record<DocumentCodes['kind'], string> = { cufe: 'CUFE', cude: 'CUDE', cuds: 'CUDS', eventCude: 'event CUDE' };

/** The report of one document: its lines, and whether everything compared matches. */
function report(c: DocumentCodes): { lines: string[]; ok: boolean } {
  const i = c.inputs;
  const what = i.typeCode ? `${i.root} ${i.typeCode}` : i.kind === 'eventCude' ? `${i.root} ${i.fields.responseCode}` : i.root;
  const lines = [
    `kind: ${KIND_LABEL[c.kind]} (${what}, ${c.scheme})`,
    `computed: ${c.hash}`,
    `declared: ${c.declared ?? '(no cbc:UUID)'}`,
    `code: ${c.matches ? 'matches' : 'DIFFERS'}`,
  ];
  if (!c.schemeMatches)
    lines.push(`scheme: DIFFERS (cbc:UUID/@schemeName is ${c.declaredScheme === null ? 'absent' : `"${c.declaredScheme}"`}, expected ${c.scheme})`);
  let ok = c.matches && c.schemeMatches;
  if (c.securityCode) {
    const s = c.securityCode;
    lines.push(
      `security code computed: ${s.hash}`,
      `security code declared: ${s.declared ?? '(no sts:SoftwareSecurityCode)'}`,
      `security code: ${s.matches ? 'matches' : 'DIFFERS'}`,
    );
    ok &&= s.matches;
  }
  return { lines, ok };
}

/** `ecf dian hash`: exit 0 when every code matches, 1 when one differs, 2 on usage, read or key problems. */
export const dianHashCommand: CliCommand = {
  name: 'dian hash',
  summary:
    'Recompute the CUFE/CUDE/CUDS/event CUDE of UBL files from their content and compare with cbc:UUID; with --pin, also the SoftwareSecurityCode (software id from the file unless given). Exit 0 all match, 1 some differ, 2 usage or unreadable file',
  usage: 'ecf dian hash [--technical-key KEY] [--pin PIN] [--software-id ID] <file.xml>...',
  async run(args, io: CliIo) {
    const { flags, positional } = parseFlags(args);
    const unknown = Object.keys(flags).filter((k) => !(OPTIONS as readonly string[]).includes(k));
    if (unknown.length) throw new UsageError(`unknown option(s): ${unknown.map((k) => `--${k}`).join(', ')}`);
    if (positional.length === 0) throw new UsageError('missing the XML file to hash');
    const keys: DocumentCodeKeys = {};
    const technicalKey = option(flags, 'technical-key');
    const pin = option(flags, 'pin');
    const softwareId = option(flags, 'software-id');
    if (technicalKey !== undefined) keys.technicalKey = technicalKey;
    if (pin !== undefined) keys.pin = pin;
    if (softwareId !== undefined) keys.softwareId = softwareId;

    const prefix = positional.length > 1;
    let exit = 0;
    for (const file of positional) {
      const p = prefix ? `${file}: ` : '';
      let bytes: Uint8Array;
      try {
        bytes = await io.readFile(file);
      } catch (e) {
        io.stderr(`ecf dian hash: cannot read ${file}: ${(e as Error).message}\n`);
        exit = 2;
        continue;
      }
      let xml: string;
      try {
        xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        io.stderr(`ecf dian hash: ${file}: not valid UTF-8 (DIAN documents must be UTF-8)\n`);
        exit = 2;
        continue;
      }
      const read = readUbl(xml);
      if (!read.ok) {
        io.stderr(`ecf dian hash: ${file}: ${read.message}\n`);
        exit = 2;
        continue;
      }
      const codes = computeDocumentCodes(read.root, keys);
      if (!codes.ok) {
        const hint = codes.missingKey === 'technicalKey' ? ' (pass --technical-key)' : codes.missingKey === 'pin' ? ' (pass --pin)' : '';
        io.stderr(`ecf dian hash: ${file}: ${codes.message}${hint}\n`);
        exit = 2;
        continue;
      }
      const r = report(codes);
      if (keys.pin && !codes.securityCode) r.lines.push('security code: not computed (no sts:SoftwareID in the file; pass --software-id)');
      for (const line of r.lines) io.stdout(`${p}${line}\n`);
      if (!r.ok && exit === 0) exit = 1;
    }
    return exit;
  },
};
