// Settings save as you go, as desktop settings do: each control stores its
// change at once, and the control changed last says "Saved" next to itself
// (SavedNote). One mark for the whole Settings page, so that the word sits
// where the person just acted and nowhere else.

class SavedMark {
  /** The control whose change was stored last; '' for none. */
  key = $state('');

  /** Marks key's change as stored. */
  show(key: string): void {
    this.key = key;
  }

  /** Takes the mark away: a mark from an earlier visit of the page belongs to that visit. */
  clear(): void {
    this.key = '';
  }

  /** Takes the mark off key (its value is being edited again); other keys keep theirs. */
  hide(key: string): void {
    if (this.key === key) this.key = '';
  }
}

/** The Settings page's "Saved" mark. */
export const savedMark = new SavedMark();
