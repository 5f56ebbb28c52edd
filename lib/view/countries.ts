/**
 * Country names for the ISO 3166-1 alpha-3 codes the service uses (2.3). `Intl.DisplayNames` knows
 * regions only by alpha-2, so the codes we expect are mapped; an unknown code is shown as it is.
 */
const ALPHA3_TO_ALPHA2: Record<string, string> = {
  AUT: 'AT', BEL: 'BE', BGR: 'BG', CAN: 'CA', CHE: 'CH', CYP: 'CY', CZE: 'CZ', DEU: 'DE', DNK: 'DK', ESP: 'ES',
  EST: 'EE', FIN: 'FI', FRA: 'FR', GBR: 'GB', GRC: 'GR', HRV: 'HR', HUN: 'HU', IRL: 'IE', ISL: 'IS', ITA: 'IT',
  LIE: 'LI', LTU: 'LT', LUX: 'LU', LVA: 'LV', MLT: 'MT', NLD: 'NL', NOR: 'NO', POL: 'PL', PRT: 'PT', ROU: 'RO',
  SVK: 'SK', SVN: 'SI', SWE: 'SE', UKR: 'UA', USA: 'US', AUS: 'AU', BRA: 'BR', IND: 'IN', PAK: 'PK', SOM: 'SO',
  SYR: 'SY', TUR: 'TR', ERI: 'ER', AFG: 'AF', IRQ: 'IQ', IRN: 'IR', CHN: 'CN', JPN: 'JP', PHL: 'PH', THA: 'TH',
  VNM: 'VN', MAR: 'MA', NGA: 'NG', ETH: 'ET', KEN: 'KE', ZAF: 'ZA', MEX: 'MX', ARG: 'AR', CHL: 'CL', COL: 'CO',
};

const displayNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function countryName(alpha3: string): string {
  const alpha2 = ALPHA3_TO_ALPHA2[alpha3];
  return (alpha2 && displayNames.of(alpha2)) ?? alpha3;
}
