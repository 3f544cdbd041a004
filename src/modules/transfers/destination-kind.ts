import type { DestinationKind } from '../../shared/ar-identifiers.js';

/**
 * D32, D40: the kind of a destination sent without one: 22 digits starting `000` are a CVU, other 22 digits a
 * CBU, anything else an alias. Whether it is a valid one of that kind is checked where it is used.
 */
export const inferDestinationKind = (destination: string): DestinationKind =>
  /^\d{22}$/.test(destination) ? (destination.startsWith('000') ? 'CVU' : 'CBU') : 'ALIAS';
