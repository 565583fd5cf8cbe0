import type { Language } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { DataExportStore, UserDataSections } from '../repositories/data-export.repository';
import { DataExportUserGone } from './data-export.errors';

/** The export's own format: a reader (or a program) knows what it holds and how to read it. */
export const dataExportFormat = 'tradebot-personal-data';
export const dataExportVersion = 1;

/** A first line in the user's language: what the file is and what it leaves out, and why. */
const about: Record<Language, string> = {
  es:
    'Copia de los datos personales que Tradebot guarda sobre ti (LGPD, art. 18). ' +
    'Fechas en UTC (ISO 8601). Los importes terminados en "Cents" están en centavos de la moneda ' +
    'indicada (USD en la plataforma simulada). No incluye contraseñas, códigos ni enlaces de un ' +
    'solo uso, ni las credenciales o autorizaciones de tu bróker: solo los guardamos cifrados o ' +
    'como huellas que no se pueden leer.',
  pt:
    'Cópia dos dados pessoais que a Tradebot guarda sobre você (LGPD, art. 18). ' +
    'Datas em UTC (ISO 8601). Os valores terminados em "Cents" estão em centavos da moeda ' +
    'indicada (USD na plataforma simulada). Não inclui senhas, códigos nem links de uso único, ' +
    'nem as credenciais ou autorizações da sua corretora: só os guardamos cifrados ou como ' +
    'impressões que não podem ser lidas.',
};

/** Where each export is recorded (decision 153): who, when, how big; never its content. */
export interface DataExportAudit {
  exported(
    userId: string,
    at: Date,
    summary: { bytes: number; counts: Record<string, number> },
  ): Promise<void>;
}

export interface DataExportFile {
  fileName: string;
  /** The JSON document, UTF-8. */
  body: string;
}

/**
 * "Download my data" (issue 39; LGPD art. 18, decision 153): every section we hold about the
 * user, as one JSON document built at once (measured small enough, see the decision), recorded
 * in the audit log.
 */
export class DataExportService {
  constructor(
    private readonly store: DataExportStore,
    private readonly audit: DataExportAudit,
    private readonly clock: Clock,
  ) {}

  async export(userId: string, language: Language): Promise<DataExportFile> {
    const sections = await this.store.collect(userId);
    if (!sections) throw new DataExportUserGone();
    const at = this.clock.now();
    const document = {
      format: dataExportFormat,
      version: dataExportVersion,
      generatedAt: at.toISOString(),
      about: about[language],
      ...sections,
    };
    const body = JSON.stringify(document, null, 2);
    await this.audit.exported(userId, at, {
      bytes: Buffer.byteLength(body),
      counts: countsOf(sections),
    });
    return { fileName: `tradebot-data-${at.toISOString().slice(0, 10)}.json`, body };
  }
}

/** How many rows each list section has: what the audit keeps instead of the content. */
function countsOf(sections: UserDataSections): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, value] of Object.entries(sections)) {
    if (Array.isArray(value)) counts[name] = value.length;
  }
  return counts;
}
