/**
 * Spanish wording of the DGII catalog codes that the printed representation (RI) shows "en palabras"
 * (FMT column I = P): units of measure (Tabla IV), payment forms, income and payment types, modification
 * codes, billing indicators, currencies (Tabla II), additional-tax families (Tabla I), provinces (Tabla III,
 * province level) and transport routes. Pure data; unknown codes fall back to the code itself.
 */

/** FMT Tabla IV, Codificación Unidad de Medida (1–62, including the 2022 and 2024 additions). */
export const UNIDADES_MEDIDA: Readonly<Record<string, string>> = {
  '1': 'Barril',
  '2': 'Bolsa',
  '3': 'Bote',
  '4': 'Bultos',
  '5': 'Botella',
  '6': 'Caja/Cajón',
  '7': 'Cajetilla',
  '8': 'Centímetro',
  '9': 'Cilindro',
  '10': 'Conjunto',
  '11': 'Contenedor',
  '12': 'Día',
  '13': 'Docena',
  '14': 'Fardo',
  '15': 'Galones',
  '16': 'Grado',
  '17': 'Gramo',
  '18': 'Granel',
  '19': 'Hora',
  '20': 'Huacal',
  '21': 'Kilogramo',
  '22': 'Kilovatio Hora',
  '23': 'Libra',
  '24': 'Litro',
  '25': 'Lote',
  '26': 'Metro',
  '27': 'Metro Cuadrado',
  '28': 'Metro Cúbico',
  '29': 'Millones de Unidades Térmicas',
  '30': 'Minuto',
  '31': 'Paquete',
  '32': 'Par',
  '33': 'Pie',
  '34': 'Pieza',
  '35': 'Rollo',
  '36': 'Sobre',
  '37': 'Segundo',
  '38': 'Tanque',
  '39': 'Tonelada',
  '40': 'Tubo',
  '41': 'Yarda',
  '42': 'Yarda cuadrada',
  '43': 'Unidad',
  '44': 'Elemento',
  '45': 'Millar',
  '46': 'Saco',
  '47': 'Lata',
  '48': 'Display',
  '49': 'Bidón',
  '50': 'Ración',
  '51': 'Quintal',
  '52': 'Toneladas de registro bruto',
  '53': 'Pie cuadrado',
  '54': 'Pasajero',
  '55': 'Pulgadas',
  '56': 'Parqueo barcos en muelle',
  '57': 'Bandeja',
  '58': 'Hectárea',
  '59': 'Mililitro',
  '60': 'Miligramo',
  '61': 'Onzas',
  '62': 'Onzas Troy',
};

/** `FormaPago` (FMT field 12). */
export const FORMAS_PAGO: Readonly<Record<string, string>> = {
  '1': 'Efectivo',
  '2': 'Cheque/Transferencia/Depósito',
  '3': 'Tarjeta de Débito/Crédito',
  '4': 'Venta a Crédito',
  '5': 'Bonos o Certificados de regalo',
  '6': 'Permuta',
  '7': 'Nota de crédito',
  '8': 'Otras formas de pago',
};

/** `TipoPago` (FMT field 9). */
export const TIPOS_PAGO: Readonly<Record<string, string>> = { '1': 'Contado', '2': 'Crédito', '3': 'Gratuito' };

/** `TipoIngresos` (FMT field 8). */
export const TIPOS_INGRESO: Readonly<Record<string, string>> = {
  '01': 'Ingresos por operaciones (no financieros)',
  '02': 'Ingresos financieros',
  '03': 'Ingresos extraordinarios',
  '04': 'Ingresos por arrendamientos',
  '05': 'Ingresos por venta de activo depreciable',
  '06': 'Otros ingresos',
};

/** `TipoCuentaPago` (FMT field 14). */
export const TIPOS_CUENTA: Readonly<Record<string, string>> = { CT: 'Cuenta corriente', AH: 'Ahorro', OT: 'Otra' };

/** `CodigoModificacion` (FMT §F field 4). */
export const CODIGOS_MODIFICACION: Readonly<Record<string, string>> = {
  '1': 'Anula el NCF modificado',
  '2': 'Corrige texto del comprobante fiscal modificado',
  '3': 'Corrige montos del NCF modificado',
  '4': 'Reemplazo de NCF emitido en contingencia',
  '5': 'Referencia factura de consumo electrónica',
};

/** `ViaTransporte` (FMT field 78). */
export const VIAS_TRANSPORTE: Readonly<Record<string, string>> = { '01': 'Terrestre', '02': 'Marítima', '03': 'Aérea' };

/** `IndicadorAgenteRetencionoPercepcion`: 1 "R", 2 "P". */
export const INDICADOR_RETENCION: Readonly<Record<string, string>> = { '1': 'Retención', '2': 'Percepción' };

/** `TipoAfiliacion` and `Liquidacion` of the mining block. */
export const TIPOS_AFILIACION: Readonly<Record<string, string>> = { '1': 'Afiliada', '2': 'No afiliada' };
export const LIQUIDACIONES: Readonly<Record<string, string>> = { '1': 'Provisional', '2': 'Final' };

/** FMT Tabla II, Codificación Monedas. */
export const MONEDAS: Readonly<Record<string, string>> = {
  BRL: 'Real brasileño',
  CAD: 'Dólar canadiense',
  CHF: 'Franco suizo',
  CHY: 'Yuan chino',
  COP: 'Peso colombiano',
  DKK: 'Corona danesa',
  EUR: 'Euro',
  GBP: 'Libra esterlina',
  HTG: 'Gourde haitiano',
  JPY: 'Yen japonés',
  MXN: 'Peso mexicano',
  NOK: 'Corona noruega',
  SCP: 'Libra escocesa',
  SEK: 'Corona sueca',
  USD: 'Dólar estadounidense',
  VEF: 'Bolívar fuerte venezolano',
  XDR: 'Derecho especial de giro',
};

/** FMT Tabla III at province level: code `PP0000` (ONE geographic coding). */
export const PROVINCIAS: Readonly<Record<string, string>> = {
  '01': 'Distrito Nacional',
  '02': 'Azua',
  '03': 'Bahoruco',
  '04': 'Barahona',
  '05': 'Dajabón',
  '06': 'Duarte',
  '07': 'Elías Piña',
  '08': 'El Seibo',
  '09': 'Espaillat',
  '10': 'Independencia',
  '11': 'La Altagracia',
  '12': 'La Romana',
  '13': 'La Vega',
  '14': 'María Trinidad Sánchez',
  '15': 'Monte Cristi',
  '16': 'Pedernales',
  '17': 'Peravia',
  '18': 'Puerto Plata',
  '19': 'Hermanas Mirabal',
  '20': 'Samaná',
  '21': 'San Cristóbal',
  '22': 'San Juan',
  '23': 'San Pedro de Macorís',
  '24': 'Sánchez Ramírez',
  '25': 'Santiago',
  '26': 'Santiago Rodríguez',
  '27': 'Valverde',
  '28': 'Monseñor Nouel',
  '29': 'Monte Plata',
  '30': 'Hato Mayor',
  '31': 'San José de Ocoa',
  '32': 'Santo Domingo',
};

/** Name of the province a `Provincia` / `Municipio` code (6 digits, ONE coding) belongs to. */
export function provinceName(code: string | undefined): string | undefined {
  if (!code || !/^\d{6}$/.test(code)) return undefined;
  return PROVINCIAS[code.slice(0, 2)];
}

/** FMT Tabla I families of additional taxes, by code. */
export function additionalTaxName(code: string): string {
  const n = Number(code);
  const named: Record<number, string> = {
    1: 'Propina legal',
    2: 'Contribución al Desarrollo de las Telecomunicaciones',
    3: 'ISC servicios de seguros',
    4: 'ISC servicios de telecomunicaciones',
    5: 'Impuesto primer registro de vehículos',
  };
  if (named[n]) return named[n]!;
  if (n >= 6 && n <= 22) return 'ISC específico';
  if (n >= 23 && n <= 39) return 'ISC ad valórem';
  return 'Impuesto adicional';
}

/** Looks a code up in a catalog, falling back to the code itself. */
export function label(catalog: Readonly<Record<string, string>>, code: unknown): string {
  const key = String(code ?? '');
  return catalog[key] ?? catalog[key.replace(/^0+(?=\d)/, '')] ?? key;
}
