// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Forwarder
/// @notice In the genesis of evmtest's chain. forward passes the value it
/// receives on to `to` with a CALL: an internal value transfer (type 0).
contract Forwarder {
    function forward(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value}("");
        require(ok, "forwarder: transfer failed");
    }
}

/// @title Child
/// @notice Made by Factory, with the value sent to it. Its owner (the account
/// that asked the factory) can destroy it: SELFDESTRUCT sends its balance to
/// the beneficiary (type 1). Since Cancun (EIP-6780) a contract destroyed in
/// a later transaction than its creation keeps its code; the balance moves
/// all the same.
contract Child {
    address public immutable owner;

    constructor(address owner_) payable {
        owner = owner_;
    }

    function destroy(address payable beneficiary) external {
        require(msg.sender == owner, "child: not the owner");
        selfdestruct(beneficiary);
    }
}

/// @title Factory
/// @notice In the genesis of evmtest's chain. create makes a Child with
/// CREATE (type 2), create2 with CREATE2 (type 3); each passes the value it
/// receives to the child.
contract Factory {
    event Created(address indexed child, address indexed owner, bool create2);

    function create() external payable returns (address child) {
        child = address(new Child{value: msg.value}(msg.sender));
        emit Created(child, msg.sender, false);
    }

    function create2(bytes32 salt) external payable returns (address child) {
        child = address(new Child{salt: salt, value: msg.value}(msg.sender));
        emit Created(child, msg.sender, true);
    }
}
