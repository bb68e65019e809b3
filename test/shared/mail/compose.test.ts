/** Composing one personalization: rendering (HTML escaped, text not), custom_args headers without injection. */
import { describe, expect, it } from 'vitest';
import { argHeaderName, argHeaders, composeMail, createMailRenderer } from '../../../src/shared/mail/compose.js';
import { validRequest } from './helpers.js';

describe('custom_args headers', () => {
  it('names each header X- plus the argument name in words, and flattens line breaks and control characters', () => {
    expect(argHeaderName('message_uuid')).toBe('X-Message-Uuid');
    expect(argHeaderName('environment')).toBe('X-Environment');
    expect(argHeaders({ message_uuid: 'abc\r\nBcc: victim@evil.example', env: 'a\u0000b\u2028c', count: 3 as unknown as string, 'bad name': 'x' })).toEqual({
      'X-Message-Uuid': 'abc Bcc: victim@evil.example',
      'X-Env': 'a b c',
    });
  });
});

describe('composeMail', () => {
  it('renders subject, HTML (escaped) and text (verbatim) from dynamic_template_data, for the personalization asked', () => {
    const req = validRequest([['a@example.com'], ['b@example.com']]);
    const data = req.personalizations[1].dynamic_template_data;
    data.subject = 'Factura\r\nBcc: x@evil.example';
    data.body.customer_name = '<b>Ana</b> & Co';
    data.body.alternative_text = 'Texto {{ footer.year }} {% raw %}';
    const mail = composeMail(req, 1, { messageId: '<m.1@x>', date: new Date(0) });
    expect(mail.subject).toBe('Factura Bcc: x@evil.example');
    expect(mail.to).toEqual([{ email: 'b@example.com', name: 'Ana Pérez' }]);
    expect(mail.html).toContain('Estimado(a) &lt;b&gt;Ana&lt;/b&gt; &amp; Co:');
    // Values are data, never template code.
    expect(mail.html).toContain('Texto {{ footer.year }} {% raw %}');
    expect(mail.text).toContain('Estimado(a) <b>Ana</b> & Co:');
    expect(mail.headers).toEqual({ 'X-Message-Uuid': 'cufe-1', 'X-Environment': '2' });
    expect(() => composeMail(req, 2, { messageId: '<m.2@x>', date: new Date(0) })).toThrow(RangeError);
  });

  it('takes operator templates; an optional part absent renders nothing', () => {
    const r = createMailRenderer({
      subject: '[{{ header.brand_name }}] {{ subject }}',
      html: '<p>{{ body.alternative_text }}</p>',
      text: '{% if body.alternative_text %}alt{% else %}none{% endif %}',
    });
    const out = r.render(validRequest().personalizations[0].dynamic_template_data);
    expect(out).toEqual({ subject: '[Mi Empresa SAS] Factura SETP990000000', html: '<p></p>', text: 'none' });
  });
});
