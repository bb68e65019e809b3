/**
 * What the client does not send with each document, passed to the builder by the caller (the server from its
 * issuer profiles, an SDK user from its own configuration): the issuing company, the software registered with
 * DIAN, the numbering resolution, the environment and the clock. Field names follow the request's conventions
 * (the company profile uses the customer's names).
 */

/** The issuing company's profile (the NIT written is the request's `identification_number`). */
export interface DianCompany {
  /** The company's NIT without check digit; when given, the request's `identification_number` must be it. */
  nit?: string;
  /** Check digit of the NIT. */
  dv: string;
  /** Registered name. */
  name: string;
  trade_name?: string;
  /** 1 legal person, 2 natural person. */
  organization_type_code: string;
  /** 31 (NIT) unless stated. */
  identification_type_code: string;
  /** 48 responsible for IVA, 49 not responsible. */
  regime_type_code: string;
  /** Fiscal responsibilities separated by `;` (O-13, O-15, R-99-PN…). */
  liability_type_code: string;
  /** 01 IVA, ZZ not applicable… */
  tax_code: string;
  merchant_registration?: string;
  /** DANE municipality code (5 digits), for an address in Colombia. */
  municipality_code?: string;
  address: string;
  country_code: string;
  phone?: string;
  email?: string;
}

/** The software registered with DIAN that issues the documents. */
export interface DianSoftware {
  id: string;
  pin: string;
  /** NIT of the technology provider (or of the company, for its own software), without check digit. */
  provider_nit: string;
  provider_dv: string;
}

/** The numbering resolution of the document's range (from DIAN's GetNumberingRange). */
export interface DianResolution {
  prefix?: string;
  from: string;
  to: string;
  /** `yyyy-MM-dd`. */
  start_date: string;
  end_date: string;
  /** The range's technical key (ClTec), for the CUFE; never written in the XML. */
  technical_key?: string;
}

export interface DianContext {
  company: DianCompany;
  software: DianSoftware;
  /** Required by the kinds that write `sts:InvoiceControl` (invoices, support documents, POS). */
  resolution?: DianResolution;
  /** `1` production, `2` habilitación (tests). */
  environment: '1' | '2';
  /** The clock, for documents without `date` and `time`: issue date and time are its Bogotá wall clock. */
  now?: () => Date;
}
