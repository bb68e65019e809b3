/**
 * `ecf dian attach`: the AttachedDocument for the buyer (protocol §8) from the issuer's signed document and DIAN's
 * ApplicationResponse, signed with the issuer's .p12 like `ecf dian sign`. Without `--response` (a contingency
 * document not yet sent) the container carries the signed document only. A thin adapter over
 * `buildAttachedDocument` (ecf-kit/dian) and `signDianXml` (ecf-kit/dian/sign).
 */
import { writeFile } from 'node:fs/promises';
import { parseFlags, requireFlag, UsageError, type CliCommand, optionalFlag } from '../../shared/cli/command.js';
import { buildAttachedDocument, readUbl, type UblNode } from '../index.js';
import type { DianDigest, DianSignerRole } from '../sign/index.js';
import { openSigner, password, readText, rejectUnknown } from './sign.js';

const ATTACH_OPTIONS = ['document', 'response', 'id', 'environment', 'p12', 'password-env', 'password-file', 'role', 'digest', 'out'] as const;
const ROLES: Record<string, DianSignerRole> = { supplier: 'supplier', 'third-party': 'third party' };
const DIGESTS: readonly DianDigest[] = ['sha256', 'sha384'];
const COMMAND = 'ecf dian attach';

/** The text of the root's child `name` (e.g. `cbc:ID`), trimmed, or undefined. */
function rootText(root: UblNode, name: string): string | undefined {
  return root.children.find((c) => c.name === name)?.text?.trim() || undefined;
}

/**
 * `ecf dian attach`: exit 0 when the signed AttachedDocument is written (stdout, or `--out`), 1 when the document's
 * signature does not verify or the container cannot be built or signed, 2 on usage, unreadable files or the .p12.
 */
export const dianAttachCommand: CliCommand = {
  name: 'dian attach',
  summary:
    "Build the AttachedDocument for the buyer from a signed invoice/note and DIAN's ApplicationResponse (omit --response for a contingency document not yet sent), signed with a .p12; XML on stdout unless --out",
  usage:
    'ecf dian attach --document signed.xml [--response dian-response.xml] [--id ID] [--environment 1|2] --p12 FILE (--password-env VAR | --password-file FILE) [--role supplier|third-party] [--digest sha256|sha384] [--out FILE]',
  async run(args, io) {
    const { flags, positional } = parseFlags(args);
    rejectUnknown(flags, ATTACH_OPTIONS);
    if (positional.length > 0) throw new UsageError(`unexpected argument(s): ${positional.join(' ')} (give the files with --document and --response)`);
    const documentPath = requireFlag(flags, 'document');
    const responsePath = optionalFlag(flags, 'response');
    const roleName = optionalFlag(flags, 'role') ?? 'supplier';
    const role = ROLES[roleName];
    if (!role) throw new UsageError(`--role must be supplier or third-party, got "${roleName}"`);
    const digest = (optionalFlag(flags, 'digest') ?? 'sha256') as DianDigest;
    if (!DIGESTS.includes(digest)) throw new UsageError(`--digest must be sha256 or sha384, got "${digest}"`);
    const environmentFlag = optionalFlag(flags, 'environment');
    if (environmentFlag !== undefined && environmentFlag !== '1' && environmentFlag !== '2') {
      throw new UsageError(`--environment must be 1 (production) or 2 (habilitación), got "${environmentFlag}"`);
    }
    const idFlag = optionalFlag(flags, 'id');
    const out = optionalFlag(flags, 'out');
    const p12Path = requireFlag(flags, 'p12');
    const pw = await password(flags, io);

    const document = await readText(io, documentPath);
    if (!document.ok) {
      io.stderr(`${COMMAND}: ${document.message}\n`);
      return 2;
    }
    const response = responsePath === undefined ? undefined : await readText(io, responsePath);
    if (response && !response.ok) {
      io.stderr(`${COMMAND}: ${response.message}\n`);
      return 2;
    }
    const clock = () => new Date();
    const signer = await openSigner(COMMAND, p12Path, pw, io, clock);
    if (typeof signer === 'number') return signer;

    const { bogotaTime, signDianXml, verifyDianXml } = await import('../sign/index.js');
    const verified = verifyDianXml(document.text);
    if (!verified.valid) {
      io.stderr(`${COMMAND}: ${documentPath}: the document's signature does not verify (${verified.code}): ${verified.reason}\n`);
      return 1;
    }
    const read = readUbl(document.text);
    const root = read.ok ? read.root : undefined;
    const id = idFlag ?? (root && rootText(root, 'cbc:ID'));
    const environment = environmentFlag ?? (root && rootText(root, 'cbc:ProfileExecutionID'));
    if (id === undefined) throw new UsageError(`${documentPath} has no cbc:ID: give the container's number with --id`);
    const now = bogotaTime(clock());
    const built = buildAttachedDocument({
      signedXml: document.text,
      ...(response?.ok ? { applicationResponseXml: response.text } : {}),
      environment: environment as '1' | '2',
      id,
      issueDate: now.slice(0, 10),
      issueTime: now.slice(11),
    });
    if (!built.ok) {
      io.stderr(`${COMMAND}: ${built.message}\n`);
      return 1;
    }
    const signed = await signDianXml(built.xml, signer, { clock, role, digest });
    if (!signed.ok) {
      io.stderr(`${COMMAND}: ${signed.code}: ${signed.message}\n`);
      return 1;
    }
    if (out === undefined) {
      io.stdout(signed.xml);
      return 0;
    }
    try {
      await writeFile(out, signed.xml);
    } catch (e) {
      io.stderr(`${COMMAND}: cannot write ${out}: ${(e as Error).message}\n`);
      return 2;
    }
    io.stdout(`attached: ${documentPath}${responsePath ? ` + ${responsePath}` : ' (no DIAN response)'} → ${out} (${signed.signatureId})\n`);
    return 0;
  },
};
