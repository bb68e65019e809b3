/**
 * DIAN's own ApplicationResponse (dian-protocol.md §1.4, §5.5, §8): the signed answer the local DIAN puts in
 * `XmlBase64Bytes`. `ResponseCode` `02` (validated) or `04` (rejected), the document answered in
 * `cac:DocumentReference`, then line responses: `0000`/`0` first, one per rule message (its code the rule, its
 * text `Regla: X, Rechazo|Notificación: …`), and `0` with the verdict's text last. DianExtensions as in DIAN's
 * own response (`SoftwareID` and `SoftwareSecurityCode` are the literal `...`). Signed with the simulator's DIAN
 * test identity by `signDianXml`, in a second, empty extension.
 */
import { sha384Hex } from '../codes/sha384.js';
import { DIAN_PARTY } from '../events/table.js';
import { bogotaTime, signDianXml } from '../sign/sign.js';
import type { Signer } from '../../shared/ports.js';
import { child, el, type UblNode } from '../ubl/tree.js';
import { writeUbl } from '../ubl/write.js';

const AGENCY: [string, string][] = [
  ['schemeAgencyID', '195'],
  ['schemeAgencyName', 'CO, DIAN (Dirección de Impuestos y Aduanas Nacionales)'],
];
const DIAN_ID: [string, string][] = [['schemeID', DIAN_PARTY.dv], ['schemeName', '31'], ...AGENCY];

/** What DIAN's answer is about. */
export interface AnswerDocumentInput {
  valid: boolean;
  /** `cbc:ProfileExecutionID` of the document answered. */
  environment: string;
  /** The response's own number (`cbc:ID`). */
  id: string;
  /** The document answered: its number, key and key scheme. */
  documentId: string;
  documentKey: string;
  documentKeyScheme: string;
  /** The sender's `cac:PartyTaxScheme` from the document (it becomes the ReceiverParty). */
  receiver: UblNode | undefined;
  /** `Regla: X, Rechazo: …` strings, with their rule codes. */
  messages: { rule: string; text: string }[];
  /** Last line's text (`La Factura electrónica SETP990000001, ha sido autorizada.`). */
  closing: string;
  now: Date;
}

function party(name: string, pts: UblNode): UblNode {
  return { ...el(name), children: [pts] };
}

function dianTaxScheme(): UblNode {
  return {
    ...el('cac:PartyTaxScheme'),
    children: [
      el('cbc:RegistrationName', 'Unidad Especial Dirección de Impuestos y Aduanas Nacionales'),
      el('cbc:CompanyID', DIAN_PARTY.nit, [
        ['schemeID', DIAN_PARTY.dv],
        ['schemeName', '31'],
      ]),
      { ...el('cac:TaxScheme'), children: [el('cbc:ID', '01'), el('cbc:Name', 'IVA')] },
    ],
  };
}

/** The receiver: the sender's PartyTaxScheme reduced to what the XSD order allows (name, id, level, scheme). */
function receiverTaxScheme(pts: UblNode | undefined): UblNode {
  const kids: UblNode[] = [];
  for (const n of ['cbc:RegistrationName', 'cbc:CompanyID', 'cbc:TaxLevelCode']) {
    const c = child(pts, n);
    if (c?.text !== undefined) kids.push({ name: c.name, attrs: c.attrs, text: c.text.trim(), children: [] });
  }
  const scheme = child(pts, 'cac:TaxScheme');
  const id = child(scheme, 'cbc:ID')?.text?.trim() ?? '01';
  const name = child(scheme, 'cbc:Name')?.text?.trim() ?? 'IVA';
  kids.push({ ...el('cac:TaxScheme'), children: [el('cbc:ID', id), el('cbc:Name', name)] });
  return { ...el('cac:PartyTaxScheme'), children: kids };
}

function line(n: number, code: string, text: string): UblNode {
  return {
    ...el('cac:LineResponse'),
    children: [
      { ...el('cac:LineReference'), children: [el('cbc:LineID', String(n))] },
      { ...el('cac:Response'), children: [el('cbc:ResponseCode', code), el('cbc:Description', text)] },
    ],
  };
}

/** The unsigned ApplicationResponse text (its last `ext:ExtensionContent` empty, for the signature). */
export function answerDocumentXml(input: AnswerDocumentInput): string {
  const stamp = bogotaTime(input.now);
  const issueDate = stamp.slice(0, 10);
  const issueTime = stamp.slice(11);
  const responseCode = input.valid ? '02' : '04';
  const uuid = sha384Hex(`${input.id}${input.documentKey}${responseCode}${issueDate}${issueTime}${DIAN_PARTY.nit}`);
  const extensions: UblNode = {
    ...el('sts:DianExtensions'),
    children: [
      {
        ...el('sts:InvoiceSource'),
        children: [
          el('cbc:IdentificationCode', 'CO', [
            ['listAgencyID', '6'],
            ['listAgencyName', 'United Nations Economic Commission for Europe'],
            ['listSchemeURI', 'urn:oasis:names:specification:ubl:codelist:gc:CountryIdentificationCode-2.1'],
          ]),
        ],
      },
      { ...el('sts:SoftwareProvider'), children: [el('sts:ProviderID', DIAN_PARTY.nit, DIAN_ID), el('sts:SoftwareID', '...', AGENCY)] },
      el('sts:SoftwareSecurityCode', '...', AGENCY),
      { ...el('sts:AuthorizationProvider'), children: [el('sts:AuthorizationProviderID', DIAN_PARTY.nit, DIAN_ID)] },
    ],
  };
  const lines: UblNode[] = [line(1, '0000', '0')];
  for (const m of input.messages) lines.push(line(lines.length + 1, m.rule, m.text));
  lines.push(line(lines.length + 1, '0', input.closing));
  const children: UblNode[] = [
    {
      ...el('ext:UBLExtensions'),
      children: [
        { ...el('ext:UBLExtension'), children: [{ ...el('ext:ExtensionContent'), children: [extensions] }] },
        { ...el('ext:UBLExtension'), children: [el('ext:ExtensionContent')] },
      ],
    },
    el('cbc:UBLVersionID', 'UBL 2.1'),
    el('cbc:CustomizationID', '1'),
    el('cbc:ProfileID', 'DIAN 2.1'),
    el('cbc:ProfileExecutionID', input.environment),
    el('cbc:ID', input.id),
    el('cbc:UUID', uuid, [['schemeName', 'CUDE-SHA384']]),
    el('cbc:IssueDate', issueDate),
    el('cbc:IssueTime', issueTime),
    party('cac:SenderParty', dianTaxScheme()),
    party('cac:ReceiverParty', receiverTaxScheme(input.receiver)),
    {
      ...el('cac:DocumentResponse'),
      children: [
        {
          ...el('cac:Response'),
          children: [
            el('cbc:ResponseCode', responseCode),
            el('cbc:Description', input.valid ? 'Documento validado por la DIAN' : 'Documento rechazado por la DIAN'),
          ],
        },
        {
          ...el('cac:DocumentReference'),
          children: [el('cbc:ID', input.documentId), el('cbc:UUID', input.documentKey, [['schemeName', input.documentKeyScheme]])],
        },
        ...lines,
      ],
    },
  ];
  return writeUbl({ name: 'ApplicationResponse', attrs: [], children }, { keepOrder: true });
}

/**
 * DIAN's ApplicationResponse, signed with `signer` (the simulator's DIAN test identity).
 *
 * @throws Error when signing fails (the simulator's own key: a bug, not a client's fault)
 */
export async function signedAnswerDocument(input: AnswerDocumentInput, signer: Signer): Promise<string> {
  const signed = await signDianXml(answerDocumentXml(input), signer, { clock: () => input.now });
  if (!signed.ok) throw new Error(`The simulator could not sign its ApplicationResponse: ${signed.code}: ${signed.message}`);
  return signed.xml;
}
