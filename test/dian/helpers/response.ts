/** A DIAN-like ApplicationResponse to sign in tests: DIAN's toolbox sample 030 with an empty extension for a signature (CRLF kept). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The unsigned response text: ResponseCode 02 (validated), sender named as DIAN. */
export function unsignedDianResponse(): string {
  return readFileSync(resolve(import.meta.dirname, '../fixtures/toolbox/030-acuse-recibofev.xml'), 'utf8')
    .replace('</ext:UBLExtensions>', '<ext:UBLExtension><ext:ExtensionContent></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>')
    .replace('<cbc:RegistrationName>Pruebas</cbc:RegistrationName>', '<cbc:RegistrationName>Unidad Especial DIAN</cbc:RegistrationName>')
    .replace('<cbc:ResponseCode>030</cbc:ResponseCode>', '<cbc:ResponseCode>02</cbc:ResponseCode>');
}
