/**
 * A product's pinned XSD manifest: which official files make up its set, the SHA-256 of each as the authority
 * served them, and the words its messages use. The installer (install.ts) and the loader (load.ts) are driven
 * by this value alone; each product keeps its own manifest beside its schemas.
 */
export interface PinnedXsdManifest {
  /** Product the set belongs to (a label, e.g. for reports). */
  readonly product: string;
  /** Who publishes the set, as messages name it (`No <publisher> XSD file found in …`). */
  readonly publisher: string;
  /** Day the pinned set was downloaded (YYYY-MM-DD). */
  readonly setDate: string;
  /**
   * Canonical file name → SHA-256 (hex) of the file as served. Holds every name of `fileNames`. A name may be a
   * relative path with `/` (`common/Types.xsd`) when the set's schemas import each other across folders: the
   * installer writes it there, the loader and the check read it there.
   */
  readonly files: Readonly<Record<string, string>>;
  /** The canonical file names the set requires, in a stable order (reports and messages follow it). */
  readonly fileNames: readonly string[];
  /** Appended to "XSD source not found" in parentheses: what to give the installer. */
  readonly sourceHint: string;
  /** Appended to the loader's "directory / file missing" messages: where to get the files and how to install them. */
  readonly help: string;
  /**
   * Version tag dropped from the end of a normalised file name so that differently versioned spellings match
   * (written as it reads after normalisation: `v1.0` → `v10`). Empty or absent: nothing dropped.
   */
  readonly versionSuffix?: string;
}
