/**
 * The request bodies of the DIAN service (dian-service.md "Resources and fields") as data: one tree of field
 * definitions for every document endpoint, with the kinds each field exists on and where it is required as
 * columns, not as code. It drives the JSON Schemas in `schemas/`, the generated TypeScript types, the service's
 * own validation (types, required fields, unknown fields) and the field reference in the docs.
 *
 * Names are the spec's (snake_case English); amounts are JSON numbers turned into exact decimals at the
 * boundary. Where the XML of a field is unknown (not shown by the spec and not found in DIAN's public material),
 * the field is accepted and validated but not written; `unwritten` says why, and the docs list those fields.
 */
import type { DianKindId } from './kinds.js';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'time' | 'object' | 'array';

export interface FieldDef {
  key: string;
  type: FieldType;
  /** For arrays: the type of the items (objects have `fields`). */
  items?: Exclude<FieldType, 'array'>;
  /** Object fields, or the fields of each array item. */
  fields?: readonly FieldDef[];
  /** Kinds the field exists on; absent: every kind its parent exists on. */
  kinds?: readonly DianKindId[];
  /** `true`: required wherever it exists; a list: required only on those kinds. */
  required?: true | readonly DianKindId[];
  maxLength?: number;
  /** A regular expression (source) the string must match. */
  pattern?: string;
  /** Spanish wording of what the pattern requires, for the message. */
  patternText?: string;
  enum?: readonly string[];
  /** Most array items. */
  maxItems?: number;
  /** Default value the service assumes when absent (documentation; not written into the request). */
  default?: string | number | boolean;
  /** Obsolete since DIAN's format 3.0: accepted with a warning; the text says what to use instead. */
  obsolete?: string;
  /** Accepted and validated but not written to the XML (not shown by the spec, unknown in DIAN's material). */
  unwritten?: string;
  /** Open object: any properties accepted (the spec does not show its fields). */
  open?: true;
  doc: string;
}

const NOTES = ['credit-note', 'debit-note', 'note-support-invoice', 'credit-note-equivalent'] as const satisfies readonly DianKindId[];
const INVOICE_ROOT = ['invoice', 'export-invoice', 'contingency-invoice', 'support-invoice', 'pos'] as const satisfies readonly DianKindId[];
/**
 * Endpoints where every customer field the spec marks is required; on the others (export-invoice, pos,
 * debit-note, contingency-invoice) only `identification_number`, `name` and `email` are.
 */
const FULL_CUSTOMER = ['invoice', 'credit-note', 'support-invoice', 'note-support-invoice', 'credit-note-equivalent'] as const satisfies readonly DianKindId[];

/** `exchange_rate.interoperability` of the export invoice: all required strings (dian-service.md, export-invoice). */
const EXPORT_INTEROPERABILITY = [
  'responsible',
  'departure_city',
  'transport_mode',
  'transport_document',
  'transport_number',
  'transport_name',
  'departure_country',
  'destination_country',
  'payment_method',
  'insurance_name',
  'observations',
] as const;
/** `exchange_rate.totals` of the export invoice: all required integers, as the spec states. */
const EXPORT_TOTALS = [
  'gross_amount',
  'currency_code',
  'subtotal_amount',
  'discount_amount',
  'surcharge_amount',
  'total_amount',
  'iva_amount',
  'inc_amount',
  'bol_amount',
  'oth_amount',
  'tax_total_amount',
  'payable_amount',
  'discount_amount_cop',
  'surcharge_amount_cop',
  'payable_amount_cop',
  'retefue_amount_cop',
  'reteiva_amount_cop',
  'reteica_amount_cop',
  'prepaid_amount_cop',
] as const;

const text: FieldDef = { key: 'text', type: 'string', required: true, doc: 'Texto.' };
const PHONE = { pattern: '^[0-9 +\\-_()]*$', patternText: 'solo dígitos, espacios y los símbolos + - _ ( )' } as const;

const taxEntry = (withRounding: boolean): FieldDef[] => [
  { key: 'tax_code', type: 'string', required: true, doc: 'Código del tributo (01 IVA, 04 INC, 03 ICA, …).' },
  { key: 'percent', type: 'number', doc: 'Tarifa en porcentaje.' },
  { key: 'tax_amount', type: 'number', required: true, doc: 'Valor del tributo.' },
  { key: 'taxable_amount', type: 'number', required: true, doc: 'Base gravable.' },
  ...(withRounding ? [{ key: 'rounding_amount', type: 'number', doc: 'Redondeo aplicado al tributo.' } as FieldDef] : []),
  { key: 'unit_measure_code', type: 'string', doc: 'Unidad de la base de un tributo por unidad.' },
  { key: 'per_unit_amount', type: 'number', doc: 'Valor del tributo por unidad.' },
  { key: 'base_unit_measure', type: 'number', doc: 'Cantidad base del tributo por unidad.' },
];

/** The document-level withholdings: the spec types their `tax_code` as an integer (5 ReteIVA, 6 ReteRenta, 7 ReteICA). */
const documentWithholdingEntry = (): FieldDef[] => [
  {
    key: 'tax_code',
    type: 'integer',
    required: true,
    doc: 'Código de la retención (5 ReteIVA, 6 ReteRenta, 7 ReteICA), un entero: se escribe con dos dígitos.',
  },
  ...withholdingEntry.slice(1),
];

const withholdingEntry: FieldDef[] = [
  { key: 'tax_code', type: 'string', required: true, doc: 'Código de la retención (05 ReteIVA, 06 ReteRenta, 07 ReteICA).' },
  { key: 'percent', type: 'number', doc: 'Tarifa en porcentaje.' },
  { key: 'tax_amount', type: 'number', required: true, doc: 'Valor retenido.' },
  { key: 'taxable_amount', type: 'number', required: true, doc: 'Base de la retención.' },
];

const reference: FieldDef[] = [
  { key: 'number', type: 'string', required: true, doc: 'Número (prefijo y consecutivo) del documento referenciado.' },
  { key: 'uuid', type: 'string', required: true, doc: 'CUFE, CUDE o CUDS del documento referenciado.' },
  { key: 'algorithm', type: 'string', enum: ['CUFE-SHA384', 'CUDE-SHA384', 'CUDS-SHA384'], doc: 'Algoritmo del código.' },
  { key: 'issue_date', type: 'date', required: true, doc: 'Fecha de emisión del documento referenciado.' },
  {
    key: 'user_identification_number',
    type: 'string',
    unwritten: 'health-sector reference data (RIPS); its XML is not in the public material',
    doc: 'Sector salud: identificación del usuario.',
  },
  { key: 'authorization_number', type: 'string', unwritten: 'health-sector reference data', doc: 'Sector salud: número de autorización.' },
  { key: 'health_service_provider_code', type: 'string', unwritten: 'health-sector reference data', doc: 'Sector salud: código del prestador.' },
  { key: 'document_reference_type_code', type: 'integer', doc: 'Tipo de documento referenciado (requerido en el sector salud).' },
  {
    key: 'type_of_non_tax_document_id',
    type: 'string',
    unwritten: 'health-sector reference data',
    doc: 'Tipo de documento no tributario (`_n_` para SS-POS).',
  },
  { key: 'amount', type: 'number', unwritten: 'health-sector reference data', doc: 'Valor (requerido cuando se informa `concept`).' },
  { key: 'concept', type: 'string', unwritten: 'health-sector reference data', doc: 'Copago, cuota moderadora, cuota de recuperación o pagos compartidos.' },
];

const simpleReference: FieldDef[] = [
  { key: 'number', type: 'string', required: true, doc: 'Número (prefijo y consecutivo) del documento referenciado.' },
  { key: 'uuid', type: 'string', required: true, doc: 'CUFE o CUDE del documento referenciado.' },
  { key: 'issue_date', type: 'date', required: true, doc: 'Fecha de emisión del documento referenciado.' },
];

const customer: FieldDef = {
  key: 'customer',
  type: 'object',
  required: true,
  doc: 'Adquiriente (en el documento soporte y su nota: el vendedor no obligado a facturar).',
  fields: [
    { key: 'identification_number', type: 'string', required: true, doc: 'Número de identificación, sin dígito de verificación.' },
    { key: 'dv', type: 'integer', doc: 'Dígito de verificación; requerido cuando el tipo de identificación es NIT (31).' },
    { key: 'identification_type_code', type: 'string', required: FULL_CUSTOMER, doc: 'Tipo de identificación (13 cédula, 31 NIT, …).' },
    { key: 'organization_type_code', type: 'string', required: FULL_CUSTOMER, doc: 'Tipo de organización (1 persona jurídica, 2 persona natural).' },
    { key: 'language_code', type: 'string', default: 'es', doc: 'Idioma.' },
    { key: 'country_code', type: 'string', required: FULL_CUSTOMER, doc: 'País (ISO 3166-1 alfa-2).' },
    { key: 'municipality_code', type: 'string', doc: 'Municipio (código DANE); requerido cuando el país es CO.' },
    { key: 'regime_type_code', type: 'string', required: FULL_CUSTOMER, doc: 'Régimen (48 responsable de IVA, 49 no responsable).' },
    { key: 'tax_code', type: 'string', required: FULL_CUSTOMER, doc: 'Tributo del adquiriente (01 IVA, ZZ no aplica, …).' },
    { key: 'liability_type_code', type: 'string', required: FULL_CUSTOMER, doc: 'Responsabilidades fiscales separadas por `;` (O-13, R-99-PN, …).' },
    { key: 'name', type: 'string', required: true, doc: 'Razón social o nombre.' },
    { key: 'trade_name', type: 'string', doc: 'Nombre comercial.' },
    { key: 'phone', type: 'string', required: FULL_CUSTOMER, ...PHONE, doc: 'Teléfono.' },
    { key: 'address', type: 'string', required: FULL_CUSTOMER, doc: 'Dirección.' },
    { key: 'email', type: 'string', required: true, doc: 'Correo electrónico (varios separados por `;`).' },
    { key: 'merchant_registration', type: 'string', required: FULL_CUSTOMER, doc: 'Matrícula mercantil.' },
  ],
};

const paymentForm: FieldDef[] = [
  { key: 'payment_form_code', type: 'string', required: true, doc: 'Forma de pago (1 contado, 2 crédito).' },
  { key: 'payment_method_code', type: 'string', required: true, doc: 'Medio de pago (10 efectivo, 42 consignación, 47 transferencia, …).' },
  { key: 'payment_due_date', type: 'date', doc: 'Fecha de vencimiento; requerida cuando la forma de pago es crédito.' },
  { key: 'duration_measure', type: 'integer', doc: 'Plazo en días; requerido cuando la forma de pago es crédito.' },
];

const monetaryTotals: FieldDef[] = [
  { key: 'line_extension_amount', type: 'number', required: true, doc: 'Suma de los valores brutos de las líneas.' },
  { key: 'tax_exclusive_amount', type: 'number', required: true, doc: 'Suma de las bases gravables de las líneas.' },
  { key: 'tax_inclusive_amount', type: 'number', required: true, doc: 'Valor bruto más tributos.' },
  { key: 'allowance_total_amount', type: 'number', required: true, doc: 'Suma de los descuentos globales.' },
  { key: 'charge_total_amount', type: 'number', required: true, doc: 'Suma de los cargos globales.' },
  { key: 'payable_rounding_amount', type: 'number', doc: 'Redondeo del total.' },
  { key: 'payable_amount', type: 'number', required: true, doc: 'Valor a pagar.' },
];

const line: FieldDef[] = [
  { key: 'notes', type: 'array', items: 'object', fields: [text], doc: 'Notas del ítem.' },
  {
    key: 'item_sector_identification_type_code',
    type: 'integer',
    unwritten: 'its XML place is not shown by the spec nor in the public samples',
    doc: 'Identificación del sector del ítem; requerida cuando el tipo de operación es 11 (mandatos) o 12 (transporte).',
  },
  { key: 'unit_measure_code', type: 'string', required: true, doc: 'Unidad de medida.' },
  { key: 'invoiced_quantity', type: 'number', required: true, doc: 'Cantidad.' },
  { key: 'line_extension_amount', type: 'number', required: true, doc: 'Valor total de la línea.' },
  {
    key: 'free_of_charge_indicator',
    type: 'boolean',
    kinds: ['invoice', 'credit-note', 'credit-note-equivalent', 'note-support-invoice', 'pos', 'debit-note', 'contingency-invoice'],
    obsolete: 'obsoleto desde la versión 3.0; indique un precio de referencia (`reference_price_code`) para muestras gratis',
    doc: 'Indicador de muestra gratis (obsoleto).',
  },
  { key: 'reference_price_code', type: 'string', doc: 'Tipo de precio de referencia de una muestra gratis (01 valor comercial, …).' },
  {
    key: 'allowance_charges',
    type: 'array',
    items: 'object',
    doc: 'Cargos y descuentos de la línea.',
    fields: [
      { key: 'charge_indicator', type: 'boolean', required: true, doc: 'true cargo, false descuento.' },
      { key: 'allowance_charge_reason', type: 'string', required: true, doc: 'Razón.' },
      { key: 'amount', type: 'number', required: true, doc: 'Valor.' },
      { key: 'base_amount', type: 'number', doc: 'Base.' },
      { key: 'multiplier_factor_numeric', type: 'number', doc: 'Porcentaje aplicado.' },
    ],
  },
  { key: 'tax_totals', type: 'array', items: 'object', fields: taxEntry(true), doc: 'Tributos de la línea.' },
  {
    key: 'withholding_tax_totals',
    type: 'array',
    items: 'object',
    kinds: INVOICE_ROOT,
    fields: withholdingEntry,
    doc: 'Retenciones de la línea.',
  },
  {
    key: 'information_content_provider_party',
    type: 'object',
    doc: 'Mandante (operaciones de mandato).',
    fields: [
      { key: 'identification_number', type: 'integer', required: true, doc: 'Identificación del mandante.' },
      { key: 'identification_type_code', type: 'integer', doc: 'Tipo de identificación del mandante.' },
    ],
  },
  { key: 'description', type: 'string', required: true, doc: 'Descripción (varias separadas por `;`).' },
  { key: 'code', type: 'string', required: true, doc: 'Código interno del producto.' },
  { key: 'item_identification_type_code', type: 'string', required: true, doc: 'Estándar del código del producto (999 adopción del contribuyente, …).' },
  {
    key: 'additional_item_properties',
    type: 'array',
    items: 'object',
    doc: 'Propiedades adicionales del ítem.',
    fields: [
      { key: 'name', type: 'string', required: true, doc: 'Nombre.' },
      { key: 'value', type: 'string', required: true, doc: 'Valor.' },
      { key: 'value_quantity', type: 'number', doc: 'Cantidad del bien.' },
      { key: 'unit_measure_code', type: 'integer', default: 94, doc: 'Unidad de la cantidad (un entero, como lo da el servicio).' },
    ],
  },
  { key: 'price_amount', type: 'number', required: true, doc: 'Valor del ítem.' },
  { key: 'base_quantity', type: 'number', required: true, doc: 'Cantidad a la que aplica el precio.' },
  { key: 'brand_name', type: 'string', kinds: ['export-invoice'], required: true, doc: 'Marca.' },
  { key: 'model_name', type: 'string', kinds: ['export-invoice'], required: true, doc: 'Modelo.' },
  { key: 'vendor_code', type: 'string', kinds: ['support-invoice'], maxLength: 50, doc: 'Código del vendedor.' },
  {
    key: 'order_line_reference',
    type: 'object',
    kinds: ['support-invoice'],
    fields: [
      { key: 'id', type: 'string', required: true, doc: 'Identificador.' },
      { key: 'issue_date', type: 'date', doc: 'Fecha.' },
    ],
    doc: 'Referencia a la línea de la orden.',
  },
  {
    key: 'receipt_line_reference',
    type: 'object',
    kinds: ['support-invoice'],
    fields: [
      { key: 'id', type: 'string', required: true, doc: 'Identificador.' },
      { key: 'issue_date', type: 'date', doc: 'Fecha.' },
    ],
    doc: 'Referencia a la línea del recibo.',
  },
  {
    key: 'invoice_period',
    type: 'object',
    kinds: ['support-invoice', 'note-support-invoice'],
    required: ['support-invoice'],
    fields: [
      { key: 'start_date', type: 'date', required: true, doc: 'Fecha de la compra.' },
      {
        key: 'form_generation_transmission_code',
        type: 'integer',
        required: true,
        enum: ['1', '2'],
        doc: 'Forma de generación y transmisión (1 por operación, 2 acumulado semanal).',
      },
    ],
    doc: 'Periodo de la compra.',
  },
  {
    key: 'tax_amount',
    type: 'number',
    kinds: ['support-invoice'],
    required: ['support-invoice'],
    unwritten: 'restates the line taxes (`tax_totals`); checked against them',
    doc: 'Valor del tributo de la línea.',
  },
  {
    key: 'taxable_amount',
    type: 'number',
    kinds: ['support-invoice'],
    required: ['support-invoice'],
    unwritten: 'restates the line taxes (`tax_totals`); checked against them',
    doc: 'Base gravable de la línea.',
  },
];

/** The header fields, then each endpoint's own, then the lines: the whole request body of every document endpoint. */
export const DIAN_FIELDS: readonly FieldDef[] = [
  { key: 'number', type: 'integer', required: true, doc: 'Consecutivo sin prefijo.' },
  { key: 'prefix', type: 'string', doc: 'Prefijo del documento.' },
  {
    key: 'send',
    type: 'boolean',
    default: false,
    unwritten: 'a service flag (e-mail the customer)',
    doc: 'Enviar por correo la representación gráfica y los adjuntos.',
  },
  {
    key: 'pos_pdf',
    type: 'boolean',
    kinds: ['credit-note-equivalent', 'pos'],
    default: false,
    unwritten: 'a service flag (PDF format)',
    doc: 'PDF en formato de tirilla.',
  },
  { key: 'notes', type: 'array', items: 'object', fields: [text], doc: 'Notas del documento.' },
  { key: 'operation_type_code', type: 'string', required: true, doc: 'Tipo de operación (CustomizationID).' },
  { key: 'document_type_code', type: 'string', required: true, doc: 'Tipo de documento.' },
  { key: 'identification_number', type: 'integer', required: true, doc: 'NIT del emisor, sin dígito de verificación.' },
  { key: 'resolution_number', type: 'integer', required: true, doc: 'Resolución de numeración.' },
  { key: 'date', type: 'date', doc: 'Fecha de emisión (por defecto, hoy en Bogotá).' },
  { key: 'time', type: 'time', doc: 'Hora de emisión (por defecto, ahora en Bogotá).' },
  { key: 'due_date', type: 'date', kinds: INVOICE_ROOT, doc: 'Fecha de vencimiento.' },
  { key: 'currency_type_code', type: 'string', required: true, doc: 'Moneda (ISO 4217); la factura de exportación exige COP.' },
  {
    key: 'order_reference',
    type: 'object',
    fields: [
      { key: 'id', type: 'string', required: true, doc: 'Número de la orden.' },
      { key: 'issue_date', type: 'date', doc: 'Fecha de la orden.' },
    ],
    doc: 'Orden de compra.',
  },
  {
    key: 'payment_exchange_rate',
    type: 'object',
    required: ['export-invoice'],
    fields: [
      { key: 'currency_type_code', type: 'string', required: true, doc: 'Moneda de origen.' },
      { key: 'calculation_rate', type: 'number', required: true, doc: 'Tasa de cambio.' },
      { key: 'date', type: 'date', required: true, doc: 'Fecha de la tasa.' },
    ],
    doc: 'Tasa de cambio.',
  },
  customer,
  { key: 'payment_forms', type: 'array', items: 'object', required: true, fields: paymentForm, doc: 'Formas de pago.' },
  {
    key: 'payment_form',
    type: 'object',
    kinds: ['credit-note-equivalent', 'pos', 'debit-note', 'contingency-invoice'],
    fields: paymentForm,
    obsolete: 'obsoleto desde la versión 3.0; use `payment_forms`',
    doc: 'Forma de pago (obsoleto: se toma como la única entrada de `payment_forms`).',
  },
  {
    key: 'prepaid_payments',
    type: 'array',
    items: 'object',
    kinds: [...INVOICE_ROOT, 'debit-note'],
    doc: 'Anticipos.',
    fields: [
      { key: 'identifier', type: 'string', required: true, doc: 'Identificador del anticipo.' },
      { key: 'paid_amount', type: 'number', required: true, doc: 'Valor.' },
      { key: 'received_date', type: 'date', doc: 'Fecha de recibido.' },
      { key: 'paid_date', type: 'date', doc: 'Fecha de pago.' },
      { key: 'instruction_id', type: 'string', doc: 'Instrucciones.' },
    ],
  },
  {
    key: 'allowance_charges',
    type: 'array',
    items: 'object',
    doc: 'Cargos y descuentos globales.',
    fields: [
      { key: 'charge_indicator', type: 'boolean', required: true, doc: 'true cargo, false descuento.' },
      { key: 'discount_code', type: 'string', doc: 'Código del descuento.' },
      { key: 'allowance_charge_reason', type: 'string', required: true, doc: 'Razón.' },
      { key: 'amount', type: 'number', required: true, doc: 'Valor.' },
      { key: 'base_amount', type: 'number', required: true, doc: 'Base.' },
    ],
  },
  { key: 'tax_totals', type: 'array', items: 'object', fields: taxEntry(true), doc: 'Tributos del documento.' },
  {
    key: 'withholding_tax_totals',
    type: 'array',
    items: 'object',
    kinds: INVOICE_ROOT,
    fields: documentWithholdingEntry(),
    doc: 'Retenciones del documento.',
  },
  {
    key: 'legal_monetary_totals',
    type: 'object',
    kinds: ['invoice', 'export-invoice', 'contingency-invoice', 'support-invoice', 'pos', 'credit-note', 'note-support-invoice', 'credit-note-equivalent'],
    required: true,
    fields: monetaryTotals,
    doc: 'Totales.',
  },
  { key: 'requested_monetary_totals', type: 'object', kinds: ['debit-note'], required: true, fields: monetaryTotals, doc: 'Totales de la nota débito.' },
  {
    key: 'branch_office',
    type: 'object',
    open: true,
    kinds: ['invoice', 'export-invoice', 'contingency-invoice', 'support-invoice', 'pos', 'credit-note', 'debit-note', 'credit-note-equivalent'],
    unwritten: 'the spec does not show its fields',
    doc: 'Datos de la sucursal del emisor.',
  },
  {
    key: 'invoice_period',
    type: 'object',
    kinds: ['invoice', 'export-invoice', 'contingency-invoice', 'pos', 'credit-note', 'debit-note', 'credit-note-equivalent'],
    doc: 'Periodo de facturación.',
    fields: [
      { key: 'start_date', type: 'date', required: true, doc: 'Fecha inicial.' },
      { key: 'start_time', type: 'time', doc: 'Hora inicial.' },
      { key: 'end_date', type: 'date', required: true, doc: 'Fecha final.' },
      { key: 'end_time', type: 'time', doc: 'Hora final.' },
    ],
  },
  {
    key: 'delivery',
    type: 'object',
    kinds: ['invoice', 'export-invoice', 'contingency-invoice', 'pos', 'credit-note', 'debit-note', 'credit-note-equivalent'],
    doc: 'Entrega.',
    fields: [
      { key: 'actual_delivery_date', type: 'date', required: true, doc: 'Fecha de entrega.' },
      { key: 'actual_delivery_time', type: 'time', required: true, doc: 'Hora de entrega.' },
      {
        key: 'delivery_terms',
        type: 'array',
        items: 'object',
        maxItems: 1,
        doc: 'Condiciones de entrega (una).',
        fields: [
          { key: 'special_terms', type: 'string', doc: 'Condiciones especiales.' },
          { key: 'delivery_type_code', type: 'integer', unwritten: 'its XML place is not known', doc: 'Tipo de entrega.' },
          { key: 'loss_risk', type: 'string', doc: 'Responsabilidad del riesgo de pérdida (Incoterm).' },
        ],
      },
    ],
  },
  {
    key: 'supplier',
    type: 'object',
    kinds: ['invoice', 'export-invoice', 'contingency-invoice', 'pos', 'credit-note', 'debit-note', 'note-support-invoice'],
    doc: 'Consorcio: participantes.',
    fields: [
      {
        key: 'shareholder',
        type: 'array',
        items: 'object',
        required: true,
        doc: 'Participantes del consorcio.',
        fields: [
          { key: 'partecipation_percent', type: 'integer', required: true, doc: 'Porcentaje de participación.' },
          { key: 'name', type: 'string', required: true, doc: 'Nombre.' },
          { key: 'identification_number', type: 'string', required: true, doc: 'Identificación.' },
          { key: 'dv', type: 'string', doc: 'Dígito de verificación.' },
          { key: 'identification_type_code', type: 'string', required: true, doc: 'Tipo de identificación.' },
          { key: 'liability_type_code', type: 'string', required: true, doc: 'Responsabilidades fiscales.' },
          { key: 'tax_code', type: 'string', required: true, doc: 'Tributo.' },
        ],
      },
    ],
  },
  // ---- endpoint-specific
  {
    key: 'billing_reference',
    type: 'object',
    kinds: NOTES,
    required: ['debit-note', 'note-support-invoice', 'credit-note-equivalent'],
    doc: 'Documento que la nota afecta (en la nota crédito, opcional: sin él es una nota sin referencia, operación 22).',
    fields: [
      ...simpleReference,
      {
        key: 'type_document_code',
        type: 'string',
        kinds: ['credit-note-equivalent'],
        required: ['credit-note-equivalent'],
        doc: 'Tipo del documento equivalente afectado.',
      },
    ],
  },
  {
    key: 'discrepancy_response',
    type: 'object',
    kinds: NOTES,
    doc: 'Concepto de corrección.',
    fields: [
      { key: 'reference', type: 'string', doc: 'Referencia.' },
      { key: 'correction_concept_code', type: 'string', required: true, doc: 'Concepto de corrección.' },
      { key: 'description', type: 'string', doc: 'Descripción.' },
    ],
  },
  {
    key: 'accreditation_operation',
    type: 'string',
    kinds: ['credit-note-equivalent', 'debit-note'],
    enum: ['SS-CUFE', 'SS-CUDE', 'SS-POS'],
    unwritten: 'health-sector data; its XML is not in the public material',
    doc: 'Sector salud: operación acreditada (requerida cuando la operación es SS-Recaudo).',
  },
  {
    key: 'additional_document_references',
    type: 'array',
    items: 'object',
    kinds: ['credit-note-equivalent', 'pos', 'debit-note', 'contingency-invoice'],
    doc: 'Otros documentos referenciados (en contingencia 03, la factura de talonario).',
    fields: [
      { key: 'number', type: 'string', required: true, doc: 'Número.' },
      { key: 'issue_date', type: 'date', required: true, doc: 'Fecha.' },
      { key: 'type_of_non_tax_document_id', type: 'string', doc: 'Tipo de documento.' },
    ],
  },
  {
    key: 'exchange_rate',
    type: 'object',
    kinds: ['export-invoice'],
    unwritten: 'the amounts in another currency go in a DIAN extension whose content the spec does not show',
    doc: 'Interoperabilidad y totales en otra moneda.',
    fields: [
      {
        key: 'interoperability',
        type: 'object',
        required: true,
        doc: 'Datos de interoperabilidad de la exportación.',
        fields: EXPORT_INTEROPERABILITY.map((key): FieldDef => ({ key, type: 'string', required: true, doc: `Interoperabilidad: \`${key}\`.` })),
      },
      {
        key: 'totals',
        type: 'object',
        required: true,
        doc: 'Totales convertidos a una moneda distinta de COP.',
        fields: EXPORT_TOTALS.map((key): FieldDef => ({ key, type: 'integer', required: true, doc: `Total en otra moneda: \`${key}\`.` })),
      },
    ],
  },
  { key: 'invoice_document_references', type: 'array', items: 'object', kinds: ['support-invoice'], fields: reference, doc: 'Facturas referenciadas.' },
  {
    key: 'credit_note_document_references',
    type: 'array',
    items: 'object',
    kinds: ['support-invoice', 'pos', 'contingency-invoice'],
    fields: reference,
    doc: 'Notas crédito referenciadas.',
  },
  {
    key: 'debit_note_document_references',
    type: 'array',
    items: 'object',
    kinds: ['support-invoice', 'pos', 'contingency-invoice'],
    fields: reference,
    doc: 'Notas débito referenciadas.',
  },
  {
    key: 'receipt_document_references',
    type: 'array',
    items: 'object',
    kinds: ['support-invoice'],
    doc: 'Recibos referenciados.',
    fields: [
      { key: 'id', type: 'string', required: true, doc: 'Número.' },
      { key: 'issue_date', type: 'date', doc: 'Fecha.' },
    ],
  },
  {
    key: 'cash_register',
    type: 'object',
    kinds: ['pos'],
    required: true,
    doc: 'Caja de venta.',
    fields: [
      { key: 'name', type: 'string', required: true, doc: 'Placa de la caja.' },
      { key: 'ubication', type: 'string', required: true, doc: 'Ubicación de la caja.' },
      { key: 'cashier', type: 'string', required: true, doc: 'Cajero.' },
      { key: 'type', type: 'string', required: true, doc: 'Tipo de caja.' },
      { key: 'sale_reference', type: 'string', required: true, doc: 'Código de la venta.' },
      { key: 'subtotal', type: 'string', required: true, doc: 'Subtotal.' },
    ],
  },
  {
    key: 'customer_benefits',
    type: 'object',
    kinds: ['pos'],
    required: true,
    doc: 'Beneficios del comprador.',
    fields: [
      { key: 'identification_number', type: 'string', required: true, doc: 'Código.' },
      { key: 'name', type: 'string', required: true, doc: 'Nombres y apellidos.' },
      { key: 'points', type: 'string', required: true, doc: 'Puntos.' },
    ],
  },
  {
    key: 'software_manufacturer',
    type: 'object',
    kinds: ['pos'],
    required: true,
    doc: 'Fabricante del software.',
    fields: [
      { key: 'software_developer', type: 'string', required: true, doc: 'Nombre y apellido del fabricante.' },
      { key: 'registration_name', type: 'string', required: true, doc: 'Razón social.' },
      { key: 'software_name', type: 'string', required: true, doc: 'Nombre del software.' },
    ],
  },
  {
    key: 'health_extension',
    type: 'object',
    kinds: ['debit-note'],
    unwritten: 'health-sector (RIPS) extension; its XML is not in the public material',
    doc: 'Sector salud (RIPS).',
    fields: [
      {
        key: 'health_collections',
        type: 'array',
        items: 'object',
        doc: 'Recaudos.',
        fields: [
          { key: 'health_service_provider_code', type: 'string', required: true, doc: 'Código del prestador.' },
          { key: 'payment_method_code', type: 'string', required: true, doc: 'Modalidad de pago.' },
          { key: 'coverage_type_code', type: 'string', required: true, doc: 'Cobertura.' },
          { key: 'contract_number', type: 'string', doc: 'Contrato.' },
          { key: 'policy_number', type: 'string', doc: 'Póliza (requerida en accidentes de tránsito y planes voluntarios).' },
          { key: 'uncontract_code', type: 'number', doc: 'Código sin contrato.' },
        ],
      },
    ],
  },
  {
    key: 'send_dian',
    type: 'boolean',
    kinds: ['contingency-invoice'],
    required: true,
    unwritten: 'a service flag (transmit now or not)',
    doc: 'false: DIAN en contingencia, no se transmite; true: se transmite.',
  },
  {
    key: 'collection_concept_code',
    type: 'string',
    kinds: ['contingency-invoice'],
    unwritten: 'health-sector (RIPS) data; its XML is not in the public material',
    doc: 'Concepto de recaudo (RIPS).',
  },
  // ---- lines
  { key: 'invoice_lines', type: 'array', items: 'object', kinds: INVOICE_ROOT, required: true, fields: line, doc: 'Líneas.' },
  {
    key: 'credit_note_lines',
    type: 'array',
    items: 'object',
    kinds: ['credit-note', 'note-support-invoice', 'credit-note-equivalent'],
    required: true,
    fields: line,
    doc: 'Líneas.',
  },
  { key: 'debit_note_lines', type: 'array', items: 'object', kinds: ['debit-note'], required: true, fields: line, doc: 'Líneas.' },
];

/**
 * The definition at a dotted path below `fields` (`customer.name`, `invoice_lines.tax_totals`; a `*` step, an array
 * item, is skipped), or undefined.
 */
export function fieldAt(path: string, fields: readonly FieldDef[] = DIAN_FIELDS): FieldDef | undefined {
  let list: readonly FieldDef[] | undefined = fields;
  let found: FieldDef | undefined;
  for (const k of path.split('.')) {
    if (k === '*') continue;
    found = list?.find((d) => d.key === k);
    if (!found) return undefined;
    list = found.fields;
  }
  return found;
}

/** Whether `field` exists on `kind` (its own `kinds`, inside a parent that exists). */
export function fieldOn(field: FieldDef, kind: DianKindId): boolean {
  return !field.kinds || field.kinds.includes(kind);
}

/** Whether `field` is required on `kind`. */
export function fieldRequired(field: FieldDef, kind: DianKindId): boolean {
  if (!fieldOn(field, kind)) return false;
  if (field.required === true) return true;
  return Array.isArray(field.required) && field.required.includes(kind);
}

/** The fields of `parent` (or the top level) that exist on `kind`. */
export function fieldsOn(fields: readonly FieldDef[], kind: DianKindId): FieldDef[] {
  return fields.filter((f) => fieldOn(f, kind));
}
