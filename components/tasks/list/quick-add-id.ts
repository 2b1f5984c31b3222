/**
 * The quick-add field's id, for whatever focuses it from elsewhere (the `q` shortcut, the command palette): a file
 * of its own, so that the header's bundle does not take in quick add and its parser.
 */
export const QUICK_ADD_INPUT_ID = "quick-add-title";
