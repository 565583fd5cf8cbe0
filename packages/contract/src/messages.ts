import type { ErrorCode } from './error-codes';
import type { Language } from './language';

/**
 * Messages that the server sends and the web app shows: one catalogue, so a form's
 * own validation and the server's answer say the same words. Interpolation uses the
 * i18next syntax ({{name}}), which both sides understand.
 */
const es = {
  'errors.BAD_REQUEST': 'La solicitud no es válida.',
  'errors.INVALID_JSON': 'El cuerpo de la solicitud no es un JSON válido.',
  'errors.VALIDATION_FAILED': 'Revisa los datos enviados.',
  'errors.UNAUTHENTICATED': 'Tu sesión no es válida o expiró. Inicia sesión de nuevo.',
  'errors.FORBIDDEN': 'No tienes permiso para realizar esta acción.',
  'errors.NOT_FOUND': 'El recurso solicitado no existe.',
  'errors.CONFLICT': 'La operación entra en conflicto con los datos existentes.',
  'errors.PLATFORM_EMAIL_TAKEN':
    'Este correo electrónico ya tiene una cuenta en la plataforma de trading',
  'errors.BROKER_ACCOUNT_TAKEN': 'Esa cuenta de bróker ya está vinculada a otro usuario.',
  'errors.RATE_LIMITED': 'Demasiados intentos. Espera un momento y vuelve a intentarlo.',
  'errors.RATE_LIMITED_WAIT': 'Demasiados intentos. Vuelve a intentarlo en {{wait}}.',
  'errors.PAYLOAD_TOO_LARGE': 'La solicitud es demasiado grande.',
  'errors.UNSUPPORTED_MEDIA_TYPE': 'Formato de solicitud no admitido. Envía JSON.',
  'errors.INTERNAL_ERROR': 'Ocurrió un error inesperado. Inténtalo de nuevo en unos minutos.',
  'errors.SERVICE_UNAVAILABLE': 'El servicio no está disponible en este momento.',
  'validation.required': 'Este campo es obligatorio',
  'validation.email': 'Correo electrónico inválido',
  'validation.emailRequired': 'Por favor, ingresa tu email',
  'validation.min': 'Mínimo {{count}} caracteres',
  'validation.max': 'Máximo {{count}} caracteres',
  'validation.numbersOnly': 'Solo se permiten números',
  'validation.latinLetters': 'Solo se permiten letras latinas',
  'validation.passwordLetterAndNumber':
    'La contraseña debe contener al menos una letra y un número',
  'validation.passwordsMatch': 'Las contraseñas no coinciden',
  'validation.acceptTerms': 'Debes aceptar los términos y condiciones',
  'validation.acceptPrivacy':
    'Para crear tu cuenta debes aceptar el tratamiento de tus datos según la política de privacidad',
  'validation.promocodeInvalid': 'El código promocional es inválido',
  'validation.invalidValue': 'Valor no válido',
  'validation.pushService':
    'Este navegador usa un servicio de notificaciones que no admitimos: las recibirás por correo.',
  'validation.unknownField': 'Campo no permitido',
  'validation.invalidCharacters': 'Contiene caracteres no permitidos',
  'validation.otpFormat': 'El código tiene 6 dígitos',
  'auth.invalidCredentials': 'Correo electrónico o contraseña incorrectos',
  'auth.signInLinkInvalid':
    'El enlace para entrar desde este dispositivo no es válido, ya se usó o venció. Puedes entrar sin él desde tus dispositivos habituales, o esperar el próximo aviso por correo.',
  'auth.emailTaken': 'Ya existe una cuenta con este correo electrónico',
  'auth.regionBlocked': 'No disponible en tu región',
  'auth.incorrectCode': 'Código incorrecto o vencido',
  'auth.passwordChanged': 'Contraseña cambiada con éxito',
  'auth.confirmationInvalid':
    'El enlace de confirmación no es válido o venció. Vuelve a crear tu cuenta: te enviaremos uno nuevo.',
  'auth.confirmationUsed':
    'Esta cuenta ya está confirmada. Inicia sesión con tu correo y tu contraseña.',
  'auth.confirmationNeedsPassword':
    'Abriste el enlace en otro navegador: escribe la contraseña que elegiste al crear tu cuenta.',
  'auth.confirmationWrongPassword': 'No es la contraseña que elegiste al crear tu cuenta.',
  'account.wrongPassword': 'La contraseña actual no es correcta',
  'account.samePassword': 'La nueva contraseña debe ser distinta de la actual',
  'account.sessionNotFound': 'Esa sesión ya terminó o no es tuya.',
  'account.currentSession': 'Esta es la sesión que estás usando: para terminarla, cierra sesión.',
  'account.sameEmail': 'Ese ya es el correo de tu cuenta',
  'account.emailLinkInvalid':
    'El enlace no es válido, ya se usó o venció. Pide el cambio de nuevo desde la configuración de tu cuenta.',
  'account.emailTaken': 'Ese correo ya pertenece a otra cuenta de Tradebot: tu correo no cambió.',
  'billing.alreadySubscribed':
    'Ya tienes una suscripción vigente. Puedes verla en tu perfil, en la sección de facturación.',
  'billing.noSubscription': 'No tienes una suscripción de pago vigente.',
  'billing.refundNotEligible':
    'El reembolso está disponible solo durante los 7 días siguientes a tu primer pago.',
  'billing.guaranteeNotEligible':
    'La garantía de 30 días no se aplica a esta cuenta (consulta las condiciones).',
  'billing.freeMonthUsed':
    'El mes gratis es para cuentas que todavía no tuvieron una suscripción ni un mes gratis.',
  'billing.portalUnavailable': 'El portal de pagos no está disponible para tu suscripción.',
  'billing.checkoutNotFound': 'No encontramos ese pago. Vuelve a elegir un plan.',
  'billing.providerUnavailable':
    'No pudimos comunicarnos con el procesador de pagos. Inténtalo de nuevo en unos minutos.',
  'billing.webhookRejected': 'Firma del evento inválida o vencida.',
  'trading.notAuthorized': 'Debes completar el pago para acceder a tu cartera y al robot.',
  'trading.notLinked': 'Debes vincular tu cuenta de broker para acceder a tu cartera y al robot.',
  'trading.robotUnavailable':
    'El robot no está disponible en este momento. Inténtalo de nuevo en unos minutos.',
  'trading.operationNotFound': 'No encontramos esa operación en tu cuenta.',
  'trading.operationAlreadyClosed':
    'Esta operación ya estaba cerrada: no se cerró otra vez. Mira su resultado en las operaciones cerradas.',
  'trading.operationCloseUnconfirmed':
    'Pedimos el cierre a la plataforma, pero todavía no lo confirmó. Mira la operación en unos segundos: si sigue abierta, vuelve a intentarlo.',
  'trading.operationCloseUnavailable':
    'No pudimos cerrar la operación: el robot que opera tu cuenta no responde. Sigue abierta; inténtalo de nuevo en unos minutos.',
  'promo.unavailable': 'Esta promoción no está disponible en este momento.',
  'linking.paymentRequired': 'Debes pagar tu suscripción para vincular tu cuenta de bróker.',
  'linking.alreadyLinked': 'Tu cuenta de bróker ya está vinculada',
  'linking.registerFailed': 'Error al registrarte en la plataforma de trading',
  'linking.loginFailed':
    'No pudimos conectar con la plataforma de trading. Inténtalo de nuevo en unos minutos.',
  'linking.notRegistered':
    'Este correo electrónico no tiene una cuenta en la plataforma de trading. Vincula tu cuenta primero.',
  'linking.invalidPlatformPassword': 'La contraseña de la plataforma de trading es incorrecta',
  'linking.alreadyLoggedIn': 'Ya iniciaste sesión en la plataforma de trading',
  'linking.ctraderNotConfigured':
    'La vinculación con brókers cTrader no está habilitada en este servidor todavía.',
  'linking.oauthStateInvalid':
    'La autorización de cTrader no corresponde a este pedido o venció. Empieza de nuevo desde Vincular cuenta.',
  'linking.oauthRefused':
    'cTrader no aceptó la autorización (el código venció o ya se usó). Empieza de nuevo desde Vincular cuenta.',
  'linking.brokerUnavailable':
    'No pudimos comunicarnos con cTrader. Inténtalo de nuevo en unos minutos.',
  'linking.accountsNotListed':
    'cTrader aceptó la autorización, pero no nos dejó leer tus cuentas. Inténtalo de nuevo desde Vincular cuenta en unos minutos.',
  'linking.noAuthorization':
    'No hay una autorización de cTrader en curso. Empieza de nuevo desde Vincular cuenta.',
  'linking.accountNotOffered': 'Esa cuenta no está entre las que autorizaste en cTrader.',
  'linking.brokerAccountTaken':
    'Esa cuenta de cTrader ya está vinculada a otro usuario de Tradebot. Elige otra cuenta o escríbenos a soporte.',
  'linking.environmentNotAllowed':
    'Este servidor solo vincula cuentas {{environment}} de cTrader: elige otra cuenta.',
  'linking.notLinked': 'No tienes una cuenta vinculada.',
  'linking.platformAccountExists':
    'Ya tienes una cuenta en la plataforma de trading: entra con la contraseña que elegiste para ella',
  'linking.notCTrader':
    'La prueba con los precios de tu bróker es para cuentas de cTrader vinculadas, y la tuya no lo es.',
  'admin.secondFactorRequired':
    'Falta el segundo factor: ingresa el código de tu aplicación de autenticación.',
  'admin.adminsOnly': 'Esta sección es solo para el equipo de soporte.',
  'admin.promoCodeTaken': 'Ya existe un código promocional con ese nombre',
  'admin.promoCodeEnded': 'Este código promocional ya no está vigente',
  'admin.promoCodeCharacters': 'Usa solo letras sin acentos, números, guiones y guiones bajos',
  'admin.validUntilAfterFrom': 'El fin de la vigencia debe ser posterior a su inicio',
  'admin.periodReversed': 'La fecha final debe ser igual o posterior a la inicial',
  'admin.userNotTrading':
    'Este usuario no tiene una cuenta de trading vinculada: no hay robot que detener.',
  'admin.guaranteeNoPayment':
    'Este usuario no tiene pagos: no hay nada que reembolsar con la garantía de 30 días.',
  'admin.guaranteeExpired':
    'Pasaron más de 30 días desde el primer pago: la garantía ya no se aplica.',
  'admin.guaranteeRefunded': 'El primer pago de este usuario ya fue reembolsado.',
  'trading.accessEndedRobotOn':
    'Tu acceso terminó: el robot no abre operaciones nuevas y no puede encenderse hasta que pagues. Puedes ver tus operaciones abiertas y cerrarlas todas.',
} as const;

export type MessageKey = keyof typeof es;

const pt: Record<MessageKey, string> = {
  'errors.BAD_REQUEST': 'A solicitação não é válida.',
  'errors.INVALID_JSON': 'O corpo da solicitação não é um JSON válido.',
  'errors.VALIDATION_FAILED': 'Verifique os dados enviados.',
  'errors.UNAUTHENTICATED': 'Sua sessão não é válida ou expirou. Entre novamente.',
  'errors.FORBIDDEN': 'Você não tem permissão para realizar esta ação.',
  'errors.NOT_FOUND': 'O recurso solicitado não existe.',
  'errors.CONFLICT': 'A operação entra em conflito com os dados existentes.',
  'errors.PLATFORM_EMAIL_TAKEN': 'Este e-mail já tem uma conta na plataforma de trading',
  'errors.BROKER_ACCOUNT_TAKEN': 'Essa conta da corretora já está vinculada a outro usuário.',
  'errors.RATE_LIMITED': 'Muitas tentativas. Aguarde um momento e tente novamente.',
  'errors.RATE_LIMITED_WAIT': 'Muitas tentativas. Tente novamente em {{wait}}.',
  'errors.PAYLOAD_TOO_LARGE': 'A solicitação é grande demais.',
  'errors.UNSUPPORTED_MEDIA_TYPE': 'Formato de solicitação não suportado. Envie JSON.',
  'errors.INTERNAL_ERROR': 'Ocorreu um erro inesperado. Tente novamente em alguns minutos.',
  'errors.SERVICE_UNAVAILABLE': 'O serviço não está disponível no momento.',
  'validation.required': 'Este campo é obrigatório',
  'validation.email': 'E-mail inválido',
  'validation.emailRequired': 'Por favor, informe seu e-mail',
  'validation.min': 'Mínimo de {{count}} caracteres',
  'validation.max': 'Máximo de {{count}} caracteres',
  'validation.numbersOnly': 'Somente números são permitidos',
  'validation.latinLetters': 'Somente letras latinas são permitidas',
  'validation.passwordLetterAndNumber': 'A senha deve conter pelo menos uma letra e um número',
  'validation.passwordsMatch': 'As senhas não coincidem',
  'validation.acceptTerms': 'Você precisa aceitar os termos e condições',
  'validation.acceptPrivacy':
    'Para criar sua conta, você precisa consentir com o tratamento dos seus dados conforme a política de privacidade',
  'validation.promocodeInvalid': 'O código promocional é inválido',
  'validation.invalidValue': 'Valor inválido',
  'validation.pushService':
    'Este navegador usa um serviço de notificações que não aceitamos: você as receberá por e-mail.',
  'validation.unknownField': 'Campo não permitido',
  'validation.invalidCharacters': 'Contém caracteres não permitidos',
  'validation.otpFormat': 'O código tem 6 dígitos',
  'auth.invalidCredentials': 'E-mail ou senha incorretos',
  'auth.signInLinkInvalid':
    'O link para entrar por este dispositivo não é válido, já foi usado ou expirou. Você pode entrar sem ele pelos seus dispositivos de sempre, ou esperar o próximo aviso por e-mail.',
  'auth.emailTaken': 'Já existe uma conta com este e-mail',
  'auth.regionBlocked': 'Não disponível na sua região',
  'auth.incorrectCode': 'Código incorreto ou expirado',
  'auth.passwordChanged': 'Senha alterada com sucesso',
  'auth.confirmationInvalid':
    'O link de confirmação não é válido ou expirou. Crie sua conta de novo: enviaremos um novo link.',
  'auth.confirmationUsed': 'Esta conta já está confirmada. Entre com seu e-mail e sua senha.',
  'auth.confirmationNeedsPassword':
    'Você abriu o link em outro navegador: digite a senha que escolheu ao criar sua conta.',
  'auth.confirmationWrongPassword': 'Esta não é a senha que você escolheu ao criar sua conta.',
  'account.wrongPassword': 'A senha atual não está correta',
  'account.samePassword': 'A nova senha deve ser diferente da atual',
  'account.sessionNotFound': 'Essa sessão já terminou ou não é sua.',
  'account.currentSession': 'Esta é a sessão que você está usando: para encerrá-la, saia da conta.',
  'account.sameEmail': 'Esse já é o e-mail da sua conta',
  'account.emailLinkInvalid':
    'O link não é válido, já foi usado ou expirou. Peça a alteração de novo nas configurações da sua conta.',
  'account.emailTaken': 'Esse e-mail já pertence a outra conta da Tradebot: seu e-mail não mudou.',
  'billing.alreadySubscribed':
    'Você já tem uma assinatura ativa. Veja-a no seu perfil, na seção de cobrança.',
  'billing.noSubscription': 'Você não tem uma assinatura paga ativa.',
  'billing.refundNotEligible':
    'O reembolso está disponível somente nos 7 dias seguintes ao seu primeiro pagamento.',
  'billing.guaranteeNotEligible':
    'A garantia de 30 dias não se aplica a esta conta (consulte as condições).',
  'billing.freeMonthUsed':
    'O mês grátis é para contas que ainda não tiveram uma assinatura nem um mês grátis.',
  'billing.portalUnavailable': 'O portal de pagamentos não está disponível para sua assinatura.',
  'billing.checkoutNotFound': 'Não encontramos esse pagamento. Escolha um plano novamente.',
  'billing.providerUnavailable':
    'Não conseguimos falar com o processador de pagamentos. Tente novamente em alguns minutos.',
  'billing.webhookRejected': 'Assinatura do evento inválida ou expirada.',
  'trading.notAuthorized': 'Você precisa concluir o pagamento para acessar sua carteira e o robô.',
  'trading.notLinked':
    'Você precisa vincular sua conta da corretora para acessar sua carteira e o robô.',
  'trading.robotUnavailable':
    'O robô não está disponível no momento. Tente novamente em alguns minutos.',
  'trading.operationNotFound': 'Não encontramos essa operação na sua conta.',
  'trading.operationAlreadyClosed':
    'Esta operação já estava fechada: não foi fechada de novo. Veja o resultado nas operações fechadas.',
  'trading.operationCloseUnconfirmed':
    'Pedimos o fechamento à plataforma, mas ela ainda não confirmou. Veja a operação em alguns segundos: se continuar aberta, tente de novo.',
  'trading.operationCloseUnavailable':
    'Não conseguimos fechar a operação: o robô que opera sua conta não responde. Ela continua aberta; tente novamente em alguns minutos.',
  'promo.unavailable': 'Esta promoção não está disponível no momento.',
  'linking.paymentRequired':
    'Você precisa pagar sua assinatura para vincular sua conta da corretora.',
  'linking.alreadyLinked': 'Sua conta da corretora já está vinculada',
  'linking.registerFailed': 'Erro ao se cadastrar na plataforma de trading',
  'linking.loginFailed':
    'Não conseguimos conectar com a plataforma de trading. Tente novamente em alguns minutos.',
  'linking.notRegistered':
    'Este e-mail não tem uma conta na plataforma de trading. Vincule sua conta primeiro.',
  'linking.invalidPlatformPassword': 'A senha da plataforma de trading está incorreta',
  'linking.alreadyLoggedIn': 'Você já entrou na plataforma de trading',
  'linking.ctraderNotConfigured':
    'A vinculação com corretoras cTrader ainda não está habilitada neste servidor.',
  'linking.oauthStateInvalid':
    'A autorização da cTrader não corresponde a este pedido ou expirou. Comece de novo em Vincular conta.',
  'linking.oauthRefused':
    'A cTrader não aceitou a autorização (o código expirou ou já foi usado). Comece de novo em Vincular conta.',
  'linking.brokerUnavailable':
    'Não conseguimos falar com a cTrader. Tente novamente em alguns minutos.',
  'linking.accountsNotListed':
    'A cTrader aceitou a autorização, mas não nos deixou ler suas contas. Tente de novo em Vincular conta daqui a alguns minutos.',
  'linking.noAuthorization':
    'Não há uma autorização da cTrader em andamento. Comece de novo em Vincular conta.',
  'linking.accountNotOffered': 'Essa conta não está entre as que você autorizou na cTrader.',
  'linking.brokerAccountTaken':
    'Essa conta da cTrader já está vinculada a outro usuário do Tradebot. Escolha outra conta ou fale com o suporte.',
  'linking.environmentNotAllowed':
    'Este servidor só vincula contas {{environment}} da cTrader: escolha outra conta.',
  'linking.notLinked': 'Você não tem uma conta vinculada.',
  'linking.platformAccountExists':
    'Você já tem uma conta na plataforma de trading: entre com a senha que escolheu para ela',
  'linking.notCTrader':
    'O teste com os preços da sua corretora é para contas da cTrader vinculadas, e a sua não é.',
  'admin.secondFactorRequired':
    'Falta o segundo fator: informe o código do seu aplicativo autenticador.',
  'admin.adminsOnly': 'Esta seção é exclusiva da equipe de suporte.',
  'admin.promoCodeTaken': 'Já existe um código promocional com esse nome',
  'admin.promoCodeEnded': 'Este código promocional não está mais vigente',
  'admin.promoCodeCharacters': 'Use apenas letras sem acento, números, hífens e sublinhados',
  'admin.validUntilAfterFrom': 'O fim da vigência deve ser posterior ao início',
  'admin.periodReversed': 'A data final deve ser igual ou posterior à inicial',
  'admin.userNotTrading':
    'Este usuário não tem uma conta de trading vinculada: não há robô para parar.',
  'admin.guaranteeNoPayment':
    'Este usuário não tem pagamentos: não há nada a reembolsar com a garantia de 30 dias.',
  'admin.guaranteeExpired':
    'Passaram mais de 30 dias desde o primeiro pagamento: a garantia não se aplica mais.',
  'admin.guaranteeRefunded': 'O primeiro pagamento deste usuário já foi reembolsado.',
  'trading.accessEndedRobotOn':
    'Seu acesso terminou: o robô não abre operações novas e não pode ser ligado até você pagar. Você pode ver suas operações abertas e fechar todas.',
};

export const messageCatalogue: Record<Language, Record<MessageKey, string>> = { es, pt };

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(es, value);
}

export function errorMessageKey(code: ErrorCode): MessageKey {
  return `errors.${code}`;
}

/** Renders a catalogue message in a language, filling {{placeholders}}. */
export function translate(
  language: Language,
  key: MessageKey,
  values: Record<string, string | number> = {},
): string {
  return messageCatalogue[language][key].replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
