import type { PinnedXsdManifest } from '../../shared/xsd/manifest.js';
import { XSD_FILE_NAMES, XSD_HELP } from './schemas.js';

/**
 * SHA-256 of each official XSD file, as DGII served them (set downloaded 2026-08-04).
 * `ecf xsd install` refuses files whose hash differs unless forced; the validator reports it.
 * Update these together with a note in docs/xsd-engine.md when DGII publishes a new set.
 */
export const PINNED_XSD_SET_DATE = '2026-08-04';

export const PINNED_XSD_SHA256: Readonly<Record<string, string>> = {
  'ACECF-v1.0.xsd': '072f65de202df8ec136a8d4493e0592172690a4e181047245401cc2e7b23c095',
  'ANECF-v1.0.xsd': 'af2e6a16c2900dfa55264d6ebec58ccbbbb25c1eb9821ee18ccc44fc142d0e78',
  'ARECF-v1.0.xsd': 'c6d186167159110959eb3f54706ecc7462ad9128fc2c3e03440c8352b1c66f10',
  'RFCE-32-v1.0.xsd': '6aad535875661b05eef072963295202fc94b3b320b257791feb8d3c39a5f8ee6',
  'Semilla-v1.0.xsd': 'bebef2033c930a30c8cef45b513db00403423125a7f3f48e100a73e3e355f67e',
  'e-CF-31-v1.0.xsd': 'cc66cbc418ceefaa6437c97607308c3e0814d73070fbbf9e9a2a331d12cb8abc',
  'e-CF-32-v1.0.xsd': 'ab66dff0b08d743e2f188242025a0dcef45203ad05687280860d3b07a475991b',
  'e-CF-33-v1.0.xsd': '718146c15edafd4582efc6886e1a7a8c5043a55236cec4fb3262094edda46615',
  'e-CF-34-v1.0.xsd': '6c1c4daf83146ecf35b81a3b2e3e34a79b429f4c1b8d63e05e2ee74f3ff8fab6',
  'e-CF-41-v1.0.xsd': 'eae1993c637375bc1cbe80932411d87f5680cd54e77e4d1b2752d72a6c8b2ab3',
  'e-CF-43-v1.0.xsd': '776f030980c2c50cf0221e9263c55f367c8631727adff00ab45e2c7c1abafc52',
  'e-CF-44-v1.0.xsd': '19834f37a9f0e2db40f00c80d07c2bf92f9019f23474480f32cef1ba06af4e67',
  'e-CF-45-v1.0.xsd': '030492cc8ef7d1a09a89b16b241f8e5c4920dfd09c0b629b1db8e68406ecd6ca',
  'e-CF-46-v1.0.xsd': 'e7f8613ade25c7efb88e84d34d7c0ad330d1b22238ad9ef90c80aed01911d67b',
  'e-CF-47-v1.0.xsd': '14daf18f52f63dd80e439a18fb60a102d74e71243ee90ee253367f61ce8e1994',
};

/** DGII's manifest: what the kernel installer and loader (src/shared/xsd/) check the e-CF set against. */
export const DGII_XSD_MANIFEST: PinnedXsdManifest = {
  product: 'e-CF',
  publisher: 'DGII',
  setDate: PINNED_XSD_SET_DATE,
  files: PINNED_XSD_SHA256,
  fileNames: XSD_FILE_NAMES,
  sourceHint: 'give the folder or the .zip downloaded from DGII',
  help: XSD_HELP,
  versionSuffix: 'v10',
};
