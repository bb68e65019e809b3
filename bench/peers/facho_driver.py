"""Peer driver for `npm run bench -- dian`: facho 0.2.1 (Python) building, signing and zipping a 10-line invoice.

The invoice is the bench's own (test/dian/helpers/build-fixtures.ts `minimalRequest('invoice', 10)` under
`CONTEXT`) as far as facho's model reaches; docs/dian/performance.md lists the differences. Started once by
bench/dian.ts with the path of a PKCS#12 file and its password; then reads commands from stdin, one a line:

  run N        build + sign + zip N invoices; answers `ms <elapsed>` (wall time of the N, perf_counter)
  sample PATH  writes one signed invoice to PATH; answers `ok`
  quit

Startup (imports, codelists) is outside every timed run. Nothing here is facho's code: only calls to its API.
"""

import dataclasses
import io
import sys
import time
from datetime import datetime, timedelta, timezone


def _python310_dataclass_defaults():
    """facho 0.2.1 (written for Python 3.4-3.7) gives dataclass fields unhashable dataclass instances as defaults
    (`city: City = City('05001')`), which Python 3.11 refuses at class creation. Python 3.10 and earlier refused
    only list, dict and set defaults; this restores that rule while facho is imported. It changes what class
    creation accepts, nothing that runs per document."""
    original = dataclasses._get_field

    def get_field(cls, a_name, a_type, *rest):
        default = cls.__dict__.get(a_name, dataclasses.MISSING)
        t = type(default)
        if (
            default is not dataclasses.MISSING
            and not isinstance(default, (dataclasses.Field, list, dict, set))
            and t.__hash__ is None
            and "__hash__" in t.__dict__
        ):
            t.__hash__ = object.__hash__
            try:
                return original(cls, a_name, a_type, *rest)
            finally:
                t.__hash__ = None
        return original(cls, a_name, a_type, *rest)

    dataclasses._get_field = get_field
    return lambda: setattr(dataclasses, "_get_field", original)


if sys.version_info >= (3, 11):
    _restore = _python310_dataclass_defaults()
else:
    _restore = lambda: None  # noqa: E731
import facho.fe.fe as fe  # noqa: E402
import facho.fe.form as form  # noqa: E402
import facho.fe.form_xml as form_xml  # noqa: E402

_restore()

BOGOTA = timezone(timedelta(hours=-5))
ISSUED = datetime(2026, 11, 24, 10, 15, 0, tzinfo=BOGOTA)
LINES = 10


def party(name, nit, dv, city, subentity, email, phone, street):
    return form.Party(
        legal_name=name,
        name=name,
        ident=form.PartyIdentification(nit, dv, "31"),
        responsability_code=form.Responsability(["O-13"]),
        responsability_regime_code="48",
        organization_code="1",
        email=email,
        phone=phone,
        address=form.Address(
            name="",
            street=street,
            city=form.City(city),
            country=form.Country("CO"),
            countrysubentity=form.CountrySubentity(subentity),
        ),
    )


SUPPLIER = party("Ferretería El Tornillo S.A.S.", "900508908", "8", "11001", "11", "facturacion@tornillo.example", "601 555 0101", "Calle 10 # 20-30")
CUSTOMER = party("Ópticas GMO Colombia S.A.S.", "900108281", "3", "05001", "05", "compras@gmo.example", "(604) 444-1234", "Carrera 8 # 20-14")


def invoice():
    inv = form.NationalSalesInvoice()
    inv.set_period(ISSUED, ISSUED)
    inv.set_issue(ISSUED)
    inv.set_ident("SETP990000001")
    inv.set_operation_type("10")
    inv.set_supplier(SUPPLIER)
    inv.set_customer(CUSTOMER)
    inv.set_payment_mean(form.PaymentMean(id="1", code="10", due_at=ISSUED, payment_id="1"))
    for n in range(1, LINES + 1):
        inv.add_invoice_line(
            form.InvoiceLine(
                quantity=form.Quantity(2, "94"),
                description="Producto %d" % n,
                item=form.StandardItem("P-%d" % n),
                price=form.Price(amount=form.Amount(100000), type_code="01", type="x"),
                tax=form.TaxTotal(subtotals=[form.TaxSubTotal(percent=19.0)]),
            )
        )
    inv.calculate()
    return inv


def extensions(inv):
    provider = form.PartyIdentification("900508908", "9", "31")
    return [
        fe.DianXMLExtensionSoftwareSecurityCode("56f2ae4e-9812-4fad-9255-08fcfcd5ccb0", "12345", inv.invoice_ident),
        fe.DianXMLExtensionAuthorizationProvider(),
        fe.DianXMLExtensionCUFE(inv, clave_tecnica="fc8eac422eba16e22ffd8c6f94b3f40a6e38162c2", tipo_ambiente=fe.AMBIENTE_PRUEBAS),
        fe.DianXMLExtensionSoftwareProvider(provider, provider.dv, "56f2ae4e-9812-4fad-9255-08fcfcd5ccb0"),
        fe.DianXMLExtensionInvoiceAuthorization(
            "18760000001", datetime(2019, 1, 19), datetime(2030, 1, 19), "SETP", 990000000, 995000000
        ),
    ]


def signed_invoice(signer):
    """facho's own pipeline (its README's use-as-lib example): model, calculate, XML with the DIAN extensions,
    then DianXMLExtensionSigner (which signs, and verifies what it signed)."""
    inv = invoice()
    xml = form_xml.DIANInvoiceXML(inv)
    for extension in extensions(inv):
        xml.add_extension(extension)
    document = xml.tostring(xml_declaration=True, encoding="UTF-8").encode("utf-8")
    return signer.sign_xml_string(document)


def zipped(signed):
    buf = io.BytesIO()
    with fe.DianZIP(buf) as z:
        z.add_invoice_xml("SETP990000001", signed)
    return buf.getvalue()


def facho_version():
    """The installed distribution's version, else where the package was imported from (a source checkout)."""
    try:
        from importlib.metadata import version

        return "facho-" + version("facho")
    except Exception:
        import os

        return "facho-source:" + os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(fe.__file__)))))


def main():
    p12_path, password = sys.argv[1], sys.argv[2]
    # mockpolicy: facho reads DIAN's policy document from its own copy instead of downloading it per signature.
    signer = fe.DianXMLExtensionSigner(p12_path, passphrase=password, mockpolicy=True)
    zipped(signed_invoice(signer))  # fail here, before any timing, if facho cannot run
    print("ready %s Python-%s" % (facho_version(), sys.version.split()[0]), flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "run":
            n = int(cmd[1])
            t = time.perf_counter()
            for _ in range(n):
                zipped(signed_invoice(signer))
            print("ms %.4f" % ((time.perf_counter() - t) * 1000), flush=True)
        elif cmd[0] == "sample":
            with open(cmd[1], "w", encoding="utf-8") as f:
                f.write(signed_invoice(signer))
            print("ok", flush=True)
        elif cmd[0] == "quit":
            break


if __name__ == "__main__":
    main()
