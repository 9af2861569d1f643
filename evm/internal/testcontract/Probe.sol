// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Probe
/// @notice The contract the evm package's node tests call. It is never
/// deployed: its runtime code and storage slot 0 (value) are put in the
/// genesis alloc of go-ethereum's simulated backend.
contract Probe {
    /// @notice The custom error failCustom reverts with.
    error Denied(address caller, uint256 code);

    /// @notice Storage slot 0, set in the genesis alloc.
    uint256 public value;

    /// @notice Overwrites value (sent as a transaction by the tests, so that
    /// the state differs between blocks).
    function setValue(uint256 v) external {
        value = v;
    }

    /// @notice Always reverts with Error(string).
    function failRequire() external pure {
        require(false, "probe: always fails");
    }

    /// @notice Returns 1 / d; d == 0 panics with Panic(0x12).
    function failPanic(uint256 d) external pure returns (uint256) {
        return 1 / d;
    }

    /// @notice Always reverts with the custom error Denied(msg.sender, code).
    function failCustom(uint256 code) external view {
        revert Denied(msg.sender, code);
    }

    /// @notice Payable: returns the sender and the value sent with the call.
    function echo() external payable returns (address sender, uint256 amount) {
        return (msg.sender, msg.value);
    }
}
