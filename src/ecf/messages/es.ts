/** Spanish messages for API clients, by issue code. Rules write their own Spanish text. */
export const es = {
  invalid_root: 'El documento debe ser un objeto JSON.',
  required: 'Campo requerido.',
  required_for_type: (tipo: string) => `Campo requerido para el tipo ${tipo}.`,
  not_allowed_for_type: (tipo: string) => `Campo no permitido en el tipo ${tipo}.`,
  unknown_field: 'Campo desconocido.',
  expected_object: 'Debe ser un objeto.',
  expected_array: 'Debe ser una lista.',
  expected_string: 'Debe ser un texto (string).',
  expected_code_string: 'Debe ser un código en texto (string), por ejemplo "01"; los códigos de catálogo se envían como string.',
  expected_integer: 'Debe ser un número entero.',
  expected_number: 'Debe ser un número (sin comillas, punto decimal, sin separador de miles).',
  expected_digits: (max: number) => `Debe ser un texto de 1 a ${max} dígitos.`,
  too_few: (min: number) => `Debe tener al menos ${min} elemento(s).`,
  too_many: (max: number) => `Admite como máximo ${max} elemento(s).`,
  empty_text: 'No puede estar vacío ni contener solo espacios.',
  control_chars: 'Contiene caracteres no permitidos en XML (caracteres de control, retorno de carro, U+FFFE/U+FFFF o sustitutos sueltos).',
  min_length: (n: number) => `Debe tener al menos ${n} caracteres.`,
  max_length: (n: number) => `Admite como máximo ${n} caracteres.`,
  pattern: 'Formato inválido.',
  enum: (values: readonly string[]) =>
    values.length <= 12 ? `Valor no permitido; valores válidos: ${values.join(', ')}.` : 'Valor no permitido: no es un código del catálogo DGII.',
  decimals: (n: number) => `Admite como máximo ${n} decimales.`,
  too_large: (max: string) => `Excede el valor máximo permitido (${max}).`,
  must_be_positive: 'Debe ser mayor que cero.',
  must_not_be_negative: 'No puede ser negativo.',
  integer_range: (min?: number, max?: number) =>
    min !== undefined && max !== undefined
      ? `Debe estar entre ${min} y ${max}.`
      : min !== undefined
        ? `Debe ser mayor o igual a ${min}.`
        : `Debe ser menor o igual a ${max}.`,
  integer_gt: (n: number) => `Debe ser mayor que ${n}.`,
  date: 'Fecha inválida: formato dd-MM-yyyy (por ejemplo 05-03-2026).',
  datetime: 'Fecha y hora inválidas: formato dd-MM-yyyy HH:mm:ss.',
  country:
    'País inválido: dos letras mayúsculas se leen como código ISO 3166-1 y este no existe; indique un código válido (por ejemplo "US") o el nombre del país (por ejemplo "Estados Unidos").',
} as const;
