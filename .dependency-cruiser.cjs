/**
 * The house rules of the two-product tree (docs/architecture.md, "Dependency rules"), checked by
 * `npm run lint:deps`, which `npm test` runs. Every rule is an error: a red rule does not land.
 *
 * Folders: src/shared (product-neutral kernel), src/ecf (Dominican e-CF), src/dian (Colombian DIAN, being built),
 * src/cli (the `ecf` dispatcher).
 */

/** Each product's pure core: no filesystem, network, environment, clock or process (design.md §1). */
const ECF_PURE = '^src/ecf/(spec|validate|calc|xml|derive|rfce|documents|messages|pdf)/|^src/ecf/time[.]ts$';
const SHARED_PURE = '^src/shared/(errors|money|time|xml|pdf)/|^src/shared/(issues|ports)[.]ts$|^src/shared/mail/(request|compose|document-mail)[.]ts$';
/** The e-CF SDK's public entry files: what the server and the CLI may import from the product. */
const ECF_ENTRIES = '^src/ecf/(index[.]ts|(sign|xsd|pdf|dgii|simulator)/index[.]ts)$';
/** The DIAN SDK's public entry files (design.md §9), the ones that exist and the ones to come. */
/** The DIAN pure core (folders as they come). */
const DIAN_PURE = '^src/dian/(spec|validate|ubl|codes|rules|build|parse|events|attached|pdf|zip|payroll)/|^src/dian/index[.]ts$';
const DIAN_ENTRIES = '^src/dian/(index[.]ts|(sign|xsd|pdf|transport|simulator)/index[.]ts)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-no-product',
      comment: 'The kernel knows no product: src/shared imports nothing from src/ecf or src/dian.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(ecf|dian)/' },
    },
    {
      name: 'ecf-not-dian',
      comment: 'The products never import each other; what both need belongs in src/shared.',
      severity: 'error',
      from: { path: '^src/ecf/' },
      to: { path: '^src/dian/' },
    },
    {
      name: 'dian-not-ecf',
      comment: 'The products never import each other; what both need belongs in src/shared.',
      severity: 'error',
      from: { path: '^src/dian/' },
      to: { path: '^src/ecf/' },
    },
    {
      name: 'pure-core-no-node',
      comment: "A product's pure core (and the kernel's pure parts) imports no Node-only module; I/O comes in through ports.",
      severity: 'error',
      from: { path: [ECF_PURE, SHARED_PURE, DIAN_PURE] },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'pure-core-stays-pure',
      comment: 'The pure core does not reach the I/O parts either (which would bring Node-only modules in by the back door).',
      severity: 'error',
      from: { path: [ECF_PURE, SHARED_PURE, DIAN_PURE] },
      to: { path: '^src/(ecf|dian)/(server|cli|dgii|transport|simulator|xsd|sign)/|^src/shared/(server-kit|http|xsd|xmldsig|cli)/|^src/cli/' },
    },
    {
      name: 'ecf-server-through-entries',
      comment: "The e-CF server is a thin adapter: it reaches the product's SDK only through its public entries (the kernel is a library it may use).",
      severity: 'error',
      from: { path: '^src/ecf/server/' },
      to: { path: '^src/ecf/', pathNot: ['^src/ecf/server/', ECF_ENTRIES] },
    },
    {
      name: 'ecf-cli-through-entries',
      comment: "The e-CF commands reach the product only through its public entries, ecf-kit/server included.",
      severity: 'error',
      from: { path: '^src/ecf/cli/' },
      to: { path: '^src/ecf/', pathNot: ['^src/ecf/cli/', ECF_ENTRIES, '^src/ecf/server/index[.]ts$'] },
    },
    {
      name: 'dian-server-through-entries',
      comment: "The DIAN server is a thin adapter: it reaches the product's SDK only through its public entries (the kernel is a library it may use).",
      severity: 'error',
      from: { path: '^src/dian/server/' },
      to: { path: '^src/dian/', pathNot: ['^src/dian/server/', DIAN_ENTRIES] },
    },
    {
      name: 'dian-cli-through-entries',
      comment: "The DIAN commands reach the product only through its public entries, ecf-kit/dian/server included.",
      severity: 'error',
      from: { path: '^src/dian/cli/' },
      to: { path: '^src/dian/', pathNot: ['^src/dian/cli/', DIAN_ENTRIES, '^src/dian/server/index[.]ts$'] },
    },
    {
      name: 'dispatcher-registers-commands-only',
      comment: "The `ecf` dispatcher knows each product only by its command list (src/<product>/cli/index.ts).",
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/(ecf|dian)/', pathNot: '^src/(ecf|dian)/cli/index[.]ts$' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles hide layering mistakes.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
  },
};
