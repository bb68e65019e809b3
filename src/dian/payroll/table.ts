/**
 * The hand-written half of the payroll description (the other half, the element tree, is generated from DIAN's
 * payroll XSDs: src/dian/spec/payroll-schema.gen.ts): the request key of every XSD element and attribute, the
 * values the builder computes instead of reading them from the request, how numbers are written, and the kinds and
 * adjustment note types as rows. Pure data.
 */

/** The two payroll kinds: individual payroll (102) and its adjustment note (103). */
export type PayrollKindId = 'payroll' | 'payroll-adjustment';

/** A payroll kind: its root element, namespace, `TipoXML` and `InformacionGeneral/@Version` text. */
export interface PayrollKind {
  root: 'NominaIndividual' | 'NominaIndividualDeAjuste';
  namespace: string;
  documentType: '102' | '103';
  version: string;
  /** Spanish name, for messages. */
  name: string;
}

/** The kinds (dian-protocol.md §7; the version texts are DIAN's, as its validators expect them). */
export const PAYROLL_KINDS: Readonly<Record<PayrollKindId, PayrollKind>> = {
  payroll: {
    root: 'NominaIndividual',
    namespace: 'dian:gov:co:facturaelectronica:NominaIndividual',
    documentType: '102',
    version: 'V1.0: Documento Soporte de Pago de Nómina Electrónica',
    name: 'la nómina individual (102)',
  },
  'payroll-adjustment': {
    root: 'NominaIndividualDeAjuste',
    namespace: 'dian:gov:co:facturaelectronica:NominaIndividualDeAjuste',
    documentType: '103',
    version: 'V1.0: Nota de Ajuste de Documento Soporte de Pago de Nómina Electrónica',
    name: 'la nota de ajuste de nómina (103)',
  },
};

/** An adjustment note type (`TipoNota`): the element that wraps the note's content and its predecessor element. */
export interface PayrollNoteType {
  wrapper: 'Reemplazar' | 'Eliminar';
  predecessor: 'ReemplazandoPredecesor' | 'EliminandoPredecesor';
  /** Spanish name, for messages. */
  name: string;
  /** The CUNE of a note without totals or employee hashes `0.00` and `0` (dian-protocol.md §3.4). */
  zeroTotals: boolean;
}

/** `TipoNota`: 1 replaces the predecessor, 2 deletes it (dian-protocol.md §7). */
export const PAYROLL_NOTE_TYPES: Readonly<Record<'1' | '2', PayrollNoteType>> = {
  '1': { wrapper: 'Reemplazar', predecessor: 'ReemplazandoPredecesor', name: 'reemplazar', zeroTotals: false },
  '2': { wrapper: 'Eliminar', predecessor: 'EliminandoPredecesor', name: 'eliminar', zeroTotals: true },
};

/**
 * The request key of each XSD element. A wrapper element (no attributes, one repeated child: `HEDs` of `HED`,
 * `FechasPagos` of `FechaPago`) is a list under its own key; its child's key is not used.
 */
export const PAYROLL_ELEMENT_KEYS: Readonly<Record<string, string>> = {
  Novedad: 'novelty',
  Periodo: 'period',
  NumeroSecuenciaXML: 'sequence',
  LugarGeneracionXML: 'place',
  ProveedorXML: 'provider',
  CodigoQR: 'qr_code',
  InformacionGeneral: 'general',
  Notas: 'notes',
  Empleador: 'employer',
  Trabajador: 'employee',
  Pago: 'payment',
  FechasPagos: 'payment_dates',
  FechaPago: 'payment_date',
  Devengados: 'earnings',
  Basico: 'basic',
  Transporte: 'transport',
  HEDs: 'daytime_overtime',
  HED: 'item',
  HENs: 'night_overtime',
  HEN: 'item',
  HRNs: 'night_surcharge',
  HRN: 'item',
  HEDDFs: 'holiday_daytime_overtime',
  HEDDF: 'item',
  HRDDFs: 'holiday_daytime_surcharge',
  HRDDF: 'item',
  HENDFs: 'holiday_night_overtime',
  HENDF: 'item',
  HRNDFs: 'holiday_night_surcharge',
  HRNDF: 'item',
  Vacaciones: 'vacation',
  VacacionesComunes: 'common',
  VacacionesCompensadas: 'compensated',
  Primas: 'service_bonus',
  Cesantias: 'severance',
  Incapacidades: 'disabilities',
  Incapacidad: 'item',
  Licencias: 'leaves',
  LicenciaMP: 'maternity_paternity',
  LicenciaR: 'paid',
  LicenciaNR: 'unpaid',
  Bonificaciones: 'bonuses',
  Bonificacion: 'item',
  Auxilios: 'aids',
  Auxilio: 'item',
  HuelgasLegales: 'legal_strikes',
  HuelgaLegal: 'item',
  OtrosConceptos: 'other_concepts',
  OtroConcepto: 'item',
  Compensaciones: 'compensations',
  Compensacion: 'item',
  BonoEPCTVs: 'epctv_bonuses',
  BonoEPCTV: 'item',
  Comisiones: 'commissions',
  Comision: 'item',
  PagosTerceros: 'third_party_payments',
  PagoTercero: 'item',
  Anticipos: 'advances',
  Anticipo: 'item',
  Dotacion: 'endowment',
  ApoyoSost: 'sustainment_support',
  Teletrabajo: 'telework',
  BonifRetiro: 'retirement_bonus',
  Indemnizacion: 'indemnity',
  Reintegro: 'refund',
  Deducciones: 'deductions',
  Salud: 'health',
  FondoPension: 'pension_fund',
  FondoSP: 'pension_security_fund',
  Sindicatos: 'unions',
  Sindicato: 'item',
  Sanciones: 'sanctions',
  Sancion: 'item',
  Libranzas: 'payroll_loans',
  Libranza: 'item',
  OtrasDeducciones: 'other_deductions',
  OtraDeduccion: 'item',
  PensionVoluntaria: 'voluntary_pension',
  RetencionFuente: 'withholding_tax',
  AFC: 'afc',
  Cooperativa: 'cooperative',
  EmbargoFiscal: 'tax_garnishment',
  PlanComplementarios: 'complementary_plans',
  Educacion: 'education',
  Deuda: 'debt',
  Redondeo: 'rounding',
  DevengadosTotal: 'earnings_total',
  DeduccionesTotal: 'deductions_total',
  ComprobanteTotal: 'voucher_total',
  TipoNota: 'note_type',
  ReemplazandoPredecesor: 'predecessor',
  EliminandoPredecesor: 'predecessor',
};

/** The request key of each XSD attribute; `Element@Attribute` entries override the attribute's general key. */
export const PAYROLL_ATTRIBUTE_KEYS: Readonly<Record<string, string>> = {
  CUNENov: 'cune',
  FechaIngreso: 'hire_date',
  FechaRetiro: 'termination_date',
  FechaLiquidacionInicio: 'settlement_start_date',
  FechaLiquidacionFin: 'settlement_end_date',
  TiempoLaborado: 'time_worked',
  FechaGen: 'generation_date',
  CodigoTrabajador: 'worker_code',
  Prefijo: 'prefix',
  Consecutivo: 'consecutive',
  Numero: 'number',
  Pais: 'country_code',
  DepartamentoEstado: 'department_code',
  MunicipioCiudad: 'municipality_code',
  Idioma: 'language_code',
  RazonSocial: 'name',
  PrimerApellido: 'first_surname',
  SegundoApellido: 'second_surname',
  PrimerNombre: 'first_name',
  OtrosNombres: 'other_names',
  NIT: 'nit',
  DV: 'dv',
  SoftwareID: 'software_id',
  SoftwareSC: 'software_security_code',
  Version: 'version',
  Ambiente: 'environment',
  TipoXML: 'document_type',
  CUNE: 'cune',
  EncripCUNE: 'cune_algorithm',
  HoraGen: 'generation_time',
  PeriodoNomina: 'payroll_period_code',
  TipoMoneda: 'currency_code',
  TRM: 'exchange_rate',
  Direccion: 'address',
  TipoTrabajador: 'worker_type_code',
  SubTipoTrabajador: 'worker_subtype_code',
  AltoRiesgoPension: 'high_risk_pension',
  TipoDocumento: 'identification_type_code',
  NumeroDocumento: 'identification_number',
  LugarTrabajoPais: 'work_country_code',
  LugarTrabajoDepartamentoEstado: 'work_department_code',
  LugarTrabajoMunicipioCiudad: 'work_municipality_code',
  LugarTrabajoDireccion: 'work_address',
  SalarioIntegral: 'integral_salary',
  TipoContrato: 'contract_type_code',
  Sueldo: 'salary',
  Forma: 'payment_form_code',
  Metodo: 'payment_method_code',
  Banco: 'bank',
  TipoCuenta: 'account_type',
  NumeroCuenta: 'account_number',
  DiasTrabajados: 'days_worked',
  SueldoTrabajado: 'salary_worked',
  AuxilioTransporte: 'transport_aid',
  ViaticoManuAlojS: 'salary_travel_allowance',
  ViaticoManuAlojNS: 'non_salary_travel_allowance',
  HoraInicio: 'start_time',
  HoraFin: 'end_time',
  Cantidad: 'quantity',
  Porcentaje: 'percentage',
  Pago: 'amount',
  FechaInicio: 'start_date',
  FechaFin: 'end_date',
  PagoNS: 'non_salary_amount',
  PagoIntereses: 'interest_amount',
  Tipo: 'type_code',
  BonificacionS: 'salary_bonus',
  BonificacionNS: 'non_salary_bonus',
  AuxilioS: 'salary_aid',
  AuxilioNS: 'non_salary_aid',
  DescripcionConcepto: 'description',
  ConceptoS: 'salary_amount',
  ConceptoNS: 'non_salary_amount',
  CompensacionO: 'ordinary',
  CompensacionE: 'extraordinary',
  PagoS: 'salary_amount',
  PagoAlimentacionS: 'salary_food_amount',
  PagoAlimentacionNS: 'non_salary_food_amount',
  Deduccion: 'deduction',
  DeduccionSP: 'deduction',
  PorcentajeSub: 'subsistence_percentage',
  DeduccionSub: 'subsistence_deduction',
  SancionPublic: 'public_sanction',
  SancionPriv: 'private_sanction',
  Descripcion: 'description',
  NumeroPred: 'number',
  CUNEPred: 'cune',
  FechaGenPred: 'generation_date',
  SchemaLocation: 'schema_location',
};

/**
 * Values the builder writes and the request does not carry (by `Element` or `Element@Attribute`): the sequence's
 * full number, the provider (software and provider NIT from the context), the codes, the kind's literals, the
 * period's generation date (the document's), the root's `SchemaLocation`.
 */
export const PAYROLL_DERIVED: ReadonlySet<string> = new Set([
  'NumeroSecuenciaXML@Numero',
  'ProveedorXML@NIT',
  'ProveedorXML@DV',
  'ProveedorXML@SoftwareID',
  'ProveedorXML@SoftwareSC',
  'CodigoQR',
  'InformacionGeneral@Version',
  'InformacionGeneral@Ambiente',
  'InformacionGeneral@TipoXML',
  'InformacionGeneral@CUNE',
  'InformacionGeneral@EncripCUNE',
  'Periodo@FechaGen',
  '@SchemaLocation',
]);

/** Required by the XSD but optional in the request: the clock's Bogotá date and time stand in. */
export const PAYROLL_DEFAULTED: ReadonlySet<string> = new Set(['InformacionGeneral@FechaGen', 'InformacionGeneral@HoraGen']);

/** `xsd:integer` attributes that are counts (JSON integers); every other integer is a code or id (JSON digit string). */
export const PAYROLL_COUNTS: ReadonlySet<string> = new Set(['DiasTrabajados', 'Cantidad']);

/**
 * `xsd:decimal` values that are not money, written exactly with at least this many decimals: hours, rates and the
 * exchange rate. Every other decimal is money, written rounded half-to-even to 2 decimals.
 */
export const PAYROLL_EXACT_DECIMALS: Readonly<Record<string, number>> = { Cantidad: 0, Porcentaje: 2, PorcentajeSub: 2, TRM: 2 };

/** `InformacionGeneral/@EncripCUNE`: the CUNE's algorithm. */
export const CUNE_ALGORITHM = 'CUNE-SHA384';

/** The tolerance DIAN allows on monetary checks (payroll annex; dian-protocol.md §7, §12). */
export const PAYROLL_TOLERANCE = '2.00';

/** The payroll rules (ruleId → what it checks), for docs and tests. */
export const PAYROLL_RULES = {
  'DIAN-NOM-EARNINGS-TOTAL': '`earnings_total` equals the sum of the earnings amounts: within ±2.00 a difference is a warning, beyond it an error',
  'DIAN-NOM-DEDUCTIONS-TOTAL': '`deductions_total` equals the sum of the deductions amounts: within ±2.00 a difference is a warning, beyond it an error',
  'DIAN-NOM-VOUCHER-TOTAL': '`voucher_total` equals `earnings_total` − `deductions_total`: within ±2.00 a warning, beyond it an error',
  'DIAN-NOM-NOTE-TYPE': '`note_type` is 1 (replace) or 2 (delete) on an adjustment note; the fields allowed follow it',
  'DIAN-NOM-PERIOD': '`period.settlement_start_date` is not after `period.settlement_end_date`, nor `period.hire_date` after it',
  'DIAN-NOM-EXCHANGE-RATE': '`general.exchange_rate` is required when `general.currency_code` is not COP',
  'DIAN-NOM-DECIMALS': 'an amount with more than 2 decimals is accepted with a warning (the XML rounds half-to-even)',
  'DIAN-NOM-NEGATIVE': 'amounts are not negative (except `rounding`)',
} as const;

/** A payroll rule id. */
export type PayrollRuleId = keyof typeof PAYROLL_RULES;
