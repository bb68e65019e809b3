/** Spanish texts about the authority shared by use cases and the HTTP error mapping. */

export const AUTHORITY_MESSAGES = {
  authorityUnavailable: 'La autoridad tributaria no está disponible en este momento. Intente nuevamente más tarde.',
  authorityBadGateway: 'No se obtuvo una respuesta válida de la autoridad tributaria.',
  authorityRefused: 'La autoridad tributaria rechazó la consulta.',
} as const;

/** Authority messages as flat strings (`codigo: valor`). */
export function authorityMessages(mensajes: readonly { codigo: string | null; valor: string }[]): string[] {
  return mensajes.map((m) => (m.codigo ? `${m.codigo}: ${m.valor}` : m.valor));
}
