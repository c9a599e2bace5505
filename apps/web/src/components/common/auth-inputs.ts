/*
 * The login and registration forms import antd's input and password fields directly:
 * the `Input` namespace export also carries TextArea, Search and OTP, which would
 * otherwise all ship in the first bundle.
 */
export { default as Input } from 'antd/es/input/Input';
export { default as PasswordInput } from 'antd/es/input/Password';
