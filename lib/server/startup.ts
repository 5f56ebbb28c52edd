import 'server-only';
import { ConfigurationError } from './env';
import { services } from './services';

/** Loads the configuration and builds the services; exits the process on a configuration error. */
export async function validateConfigurationAtStartup(): Promise<void> {
  try {
    await services();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      console.error(`\n[idv] configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
