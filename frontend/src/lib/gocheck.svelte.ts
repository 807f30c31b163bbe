// An editor's input as Go checks it (ServersService.Validate,
// ProvidersService.Validate): each change once the person pauses, the first
// at once, and at Save at once. Only the newest check's answer counts.

import * as api from './api';
import type { FieldErrors } from './api';
import { latest, type Guard } from './latest';

export class GoCheck<I> {
  /** What Go found wrong, per field, with the input checked last. */
  errors = $state<FieldErrors>({});
  /** The input errors were found in. */
  checked = $state.raw<I | null>(null);
  /** Why Go could not be asked, if it could not. */
  failed = $state('');
  private checks = latest();
  private first = true;

  constructor(
    private readonly ask: (input: I) => Promise<FieldErrors>,
    private readonly debounceMs: number,
  ) {}

  /** Checks input once typing pauses. Call it in an $effect (it reads every field, so any change runs it again) and return what it returns. */
  soon(input: I): () => void {
    JSON.stringify(input);
    const mine = this.checks();
    const timer = setTimeout(() => void this.run(input, mine), this.first ? 0 : this.debounceMs);
    this.first = false;
    return () => clearTimeout(timer);
  }

  /** Checks input now (Enter right after a fix saves); false when another check started meanwhile, so that the answer is about another input. */
  now(input: I): Promise<boolean> {
    return this.run(input, this.checks());
  }

  private async run(input: I, mine: Guard): Promise<boolean> {
    try {
      const errors = await this.ask(input);
      if (!mine()) return false;
      this.errors = errors;
      this.checked = input;
      this.failed = '';
    } catch (e) {
      if (!mine()) return false;
      this.errors = {};
      this.failed = api.errorText(e);
    }
    return true;
  }
}
