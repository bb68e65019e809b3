/**
 * `ecf dian admin certificate reseal`: key rotation's last step. After restarting the server with the new key in
 * DIAN_CERT_KEY and the old one in DIAN_CERT_KEY_PREVIOUS, it re-encrypts every company's signing identity under
 * the current key (one company per write, idempotent: safe to run again after a crash or a failure), so the old
 * key can then be removed. JSON on stdout: the current key's id, the NITs re-sealed, already current and failed
 * (with why). Exit 0 when none failed, 1 otherwise (fix the keys and run it again).
 */
import { command, parse, print, STORAGE_FLAGS, withStorage } from './admin.js';

export const dianCertificateResealCommand = command({
  name: 'dian admin certificate reseal',
  summary: "Re-encrypt every DIAN company's signing identity under the current DIAN_CERT_KEY (key rotation)",
  usage: 'ecf dian admin certificate reseal [--data-dir DIR] [--database-url URL]',
  async body(args, io) {
    const flags = parse(args, [...STORAGE_FLAGS]);
    const { DianAdminError, loadDianCertificateKey, resealIdentities } = await import('../server/index.js');
    await withStorage(flags, io, async (storage, dir) => {
      const report = await resealIdentities(storage, loadDianCertificateKey({ dataDir: dir, env: io.env }));
      print(io, report);
      if (report.failed.length > 0) {
        throw new DianAdminError(
          `${report.failed.length} compan${report.failed.length === 1 ? 'y' : 'ies'} not re-sealed (${report.failed.map((f) => f.nit).join(', ')}); ` +
            'see "failed" above, fix DIAN_CERT_KEY / DIAN_CERT_KEY_PREVIOUS and run the command again',
        );
      }
    });
  },
});
